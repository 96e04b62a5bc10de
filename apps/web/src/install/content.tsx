/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import type { InstallPage, NativePackageType } from '@release/contract';
import { nativePackageTypes } from '@release/contract/install-page';
import { choosePlatform, platformOfRoute, preferredPlatforms } from '../features/packages/install-env.ts';
import { installText } from '../features/packages/install.strings.ts';
import { BuildPage } from './build-page.tsx';
import { FeedbackEntry } from './feedback-entry.tsx';
import { Alert } from './ui.tsx';
import { LatestVersion, VersionListItem } from './version.tsx';

export function EmptyApp() {
  return (
    <div class="i-empty" data-testid="install-empty">
      <p>{installText.noVersions}</p>
      <p class="i-muted">{installText.noVersionsContent}</p>
    </div>
  );
}

/** The unlocked page: a platform switch, its newest installable build up front, then its other builds. */
export function InstallContent({ page, versionId }: { page: InstallPage; versionId: number | undefined }) {
  const available = nativePackageTypes.filter((type) => page.versions.some((v) => v.nativePackageType === type));
  // The server puts an asked-for version first; otherwise versions are newest first.
  const asked = versionId !== undefined ? page.versions.find((v) => v.id === versionId) : undefined;
  const [platform, setPlatform] = useState<NativePackageType | null>(() =>
    choosePlatform(available, [
      asked?.nativePackageType ?? null,
      platformOfRoute(location.pathname),
      ...preferredPlatforms(navigator.userAgent, navigator.maxTouchPoints),
    ]),
  );
  const now = Date.now();
  // A link to one build (…?id=) is that build's own page.
  if (asked && !page.askedVersionMissing) return <BuildPage page={page} version={asked} />;
  if (platform === null || available.length === 0) return <EmptyApp />;

  const ofPlatform = page.versions.filter((v) => v.nativePackageType === platform);
  // The platform's main action is its newest build a device installs itself (never an .aab).
  const latest = (asked?.nativePackageType === platform ? asked : undefined) ?? ofPlatform.find((v) => v.installable);
  const older = ofPlatform.filter((v) => v !== latest);
  return (
    <div class="i-stack i-gap-16">
      {page.askedVersionMissing && (
        <Alert type="warning" title={installText.askedVersionMissing} testId="install-version-missing" />
      )}
      {available.length > 1 && (
        <div class="i-segmented" role="tablist" data-testid="install-platform">
          {available.map((type) => (
            <button
              key={type}
              type="button"
              role="tab"
              aria-selected={type === platform}
              class={type === platform ? 'i-seg i-seg-on' : 'i-seg'}
              onClick={() => setPlatform(type)}
            >
              {installText.platforms[type]}
            </button>
          ))}
        </div>
      )}
      {platform === 'ios' && !page.secure && (
        <Alert type="warning" title={installText.httpsTitle} testId="install-https-alert">
          {installText.httpsContent}
        </Alert>
      )}
      {latest ? (
        <LatestVersion
          version={latest}
          now={now}
          appPath={page.app.path}
          canRegister={page.access !== 'public'}
          heading={installText.latest}
        />
      ) : (
        <p class="i-empty i-muted">{installText.noPlatformVersions(installText.platforms[platform])}</p>
      )}
      {latest && page.feedback && <FeedbackEntry key={latest.id} path={page.app.path} version={latest} />}
      {older.length > 0 && (
        <div>
          <div class="i-divider">{installText.recent}</div>
          <div class="install-version-list">
            {older.map((version) => (
              <VersionListItem key={version.id} version={version} now={now} />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
