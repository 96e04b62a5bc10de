/** @jsxImportSource preact */
import type { InstallVersion } from '@release/contract';
import { isPackageExpired, packageKindRow, type PackageIconName } from '@release/contract/install-page';
import { currentDevicePlatform, installsElsewhere } from '../features/packages/install-env.ts';
import { installText } from '../features/packages/install.strings.ts';
import { formatSize, formatVersionTime, versionTitle } from '../features/versions/version-format.ts';
import { BuildChanges } from './changes.tsx';
import { InstallModules } from './install-modules.tsx';
import { needsRegistration, RegisterDevice } from './register-device.tsx';
import { ActionLink, Alert, Button, Clamp, Icon, INSTALL_QR_ID, type IconName } from './ui.tsx';

/**
 * The right action per build, from the kind table: 安装 (iOS, itms-services), 下载安装 (Android), 打开 (html), else 下载.
 * A build this device cannot install (an ipa off an iPhone/iPad, an apk on one) offers its file only; an .aab is only a file.
 */
export function InstallAction({ version, large = false }: { version: InstallVersion; large?: boolean }) {
  const main = {
    look: large ? ('primary' as const) : ('default' as const),
    large,
    block: large,
    testId: 'install-action',
  };
  const file = {
    testId: 'install-action',
    href: version.downloadUrl,
    download: version.fileName,
    icon: 'download' as const,
  };
  if (!version.installable)
    return <ActionLink {...file}>{installText.downloadBundle(packageKindRow(version.packageKind).tag)}</ActionLink>;
  const elsewhere = installsElsewhere(version.nativePackageType, currentDevicePlatform());
  // The way to install is the hint beside it; the file is for Apple Configurator, adb or a colleague.
  if (elsewhere)
    return (
      <ActionLink {...file} look={large ? 'link' : 'default'}>
        {installText.downloadFile[elsewhere]}
      </ActionLink>
    );
  const action = packageKindRow(version.packageKind).action;
  // A build with an install link of its own (a HarmonyOS enterprise build's store:// manifest) is installed through it.
  if (action !== 'install' && version.installUrl)
    return (
      <ActionLink {...main} icon="download" href={version.installUrl}>
        {installText.install}
      </ActionLink>
    );
  switch (action) {
    case 'install':
      return (
        <ActionLink {...main} icon="apple" href={version.installUrl ?? ''} disabled={!version.installUrl}>
          {installText.install}
        </ActionLink>
      );
    case 'downloadInstall':
      return (
        <ActionLink {...main} icon="android" href={version.downloadUrl} download={version.fileName}>
          {installText.downloadInstall}
        </ActionLink>
      );
    case 'open':
      // Shown by the server sandboxed in its own origin; the page cannot reach this site's sign-in.
      if (version.openUrl) {
        return (
          <ActionLink {...main} icon="globe" href={version.openUrl} newTab>
            {installText.open}
          </ActionLink>
        );
      }
      break;
    case 'download':
      break;
  }
  return (
    <ActionLink {...main} icon="download" href={version.downloadUrl} download={version.fileName}>
      {installText.download}
    </ActionLink>
  );
}

export function Meta({ version, now }: { version: InstallVersion; now: number }) {
  const parts = [formatSize(version.appSize), formatVersionTime(version.createTime, now)];
  if (version.minimumOs) parts.push(`${installText.minimumOs} ${version.minimumOs}`);
  return <span class="i-muted i-small">{parts.join(' · ')}</span>;
}

function Note({ text, rows }: { text: string; rows: 2 | 6 }) {
  if (!text) return <p class="i-muted">{installText.noNote}</p>;
  return <Clamp text={text} rows={rows} />;
}

export function TypeTag({ version }: { version: InstallVersion }) {
  return (
    <span class={`i-tag i-tag-${version.nativePackageType}`} data-package-type={version.nativePackageType}>
      {packageKindRow(version.packageKind).tag}
    </span>
  );
}

/** 调试证书: a build signed for debugging installs only on its profile's test devices. */
function DebugSignedTag({ version }: { version: InstallVersion }) {
  if (!version.debugSigned) return null;
  return (
    <span class="i-tag i-tag-warn" data-testid="version-debug-signed" title={installText.debugSignedHint}>
      {installText.debugSigned}
    </span>
  );
}

function scrollToQrCode() {
  document.getElementById(INSTALL_QR_ID)?.scrollIntoView({ behavior: 'smooth', block: 'center' });
}

/** In place of the install button, when the build installs on another kind of device: scan the page's QR code there. */
function InstallElsewhere({ version, platform }: { version: InstallVersion; platform: 'ios' | 'android' }) {
  // For ad-hoc/development builds the registration box under it already tells how to open the page on the iPhone.
  const hint = needsRegistration(version) ? undefined : installText.elsewhereHint[platform];
  return (
    <div class="i-stack i-gap-4">
      <Alert type="info" icon="qr" title={installText.elsewhereTitle[platform]} testId="install-elsewhere">
        {hint}
      </Alert>
      <div class="i-row i-gap-16 i-wrap">
        <InstallAction version={version} large />
        {/* In one column the QR code is under the builds, out of sight. */}
        <Button look="link" icon="qr" class="install-show-qr" onClick={scrollToQrCode} testId="install-show-qr">
          {installText.showQr}
        </Button>
      </div>
    </div>
  );
}

/** The install page's line icon for each icon of the kind table (Apple builds share the apple). */
const placeholderIcons: Record<PackageIconName, IconName> = {
  apple: 'apple',
  android: 'android',
  mac: 'apple',
  archive: 'globe',
  browser: 'globe',
  harmony: 'mobile',
};

function VersionIcon({ version, size }: { version: InstallVersion; size: number }) {
  if (version.iconUrl) return <img class="i-version-icon" src={version.iconUrl} width={size} height={size} alt="" />;
  return (
    <span class="i-version-icon i-version-icon-empty" style={{ width: `${size}px`, height: `${size}px` }}>
      <Icon name={placeholderIcons[packageKindRow(version.packageKind).icon]} size={22} />
    </span>
  );
}

/** The newest installable build of the chosen platform (or the asked one), with its big action button. */
export function LatestVersion({
  version,
  now,
  appPath,
  canRegister,
  heading,
}: {
  version: InstallVersion;
  now: number;
  appPath: string;
  canRegister: boolean;
  heading: string;
}) {
  const expired = isPackageExpired(version.expireDate, now);
  const elsewhere = version.installable ? installsElsewhere(version.nativePackageType, currentDevicePlatform()) : null;
  const hint =
    version.nativePackageType === 'ios' && version.profileType
      ? installText.profileHints[version.profileType]
      : undefined;
  return (
    <div class="i-stack i-gap-12 install-latest" data-testid="install-version" data-version-id={version.id}>
      <div class="i-row i-gap-12">
        <VersionIcon version={version} size={48} />
        <div class="i-stack i-gap-2 i-min0">
          <span class="i-muted i-small">{heading}</span>
          <span class="i-title-line">
            <strong class="i-version-title" data-testid="install-version-title">
              {versionTitle(version)}
            </strong>{' '}
            <TypeTag version={version} /> <DebugSignedTag version={version} />
          </span>
          <Meta version={version} now={now} />
        </div>
      </div>
      {expired && (
        <Alert type="warning" title={installText.expired} testId="install-expired">
          {installText.expiredHint}
        </Alert>
      )}
      {!version.installable && (
        <p class="i-muted i-small" data-testid="install-bundle-hint">
          {packageKindRow(version.packageKind).notInstallableHint}
        </p>
      )}
      {elsewhere ? (
        <InstallElsewhere version={version} platform={elsewhere} />
      ) : (
        <InstallAction version={version} large={version.installable} />
      )}
      <InstallModules version={version} />
      {canRegister && <RegisterDevice version={version} appPath={appPath} />}
      {hint && <span class="i-muted i-small">{hint}</span>}
      <div>
        <strong>{installText.note}</strong>
        <Note text={version.description} rows={6} />
      </div>
      {version.changes && <BuildChanges changes={version.changes} />}
      {version.attachFiles.length > 0 && (
        <div class="i-stack i-gap-2">
          <strong>{installText.attachments}</strong>
          {version.attachFiles.map((file) => (
            <a key={file.url} class="i-ellipsis" href={file.url} target="_blank" rel="noreferrer">
              <Icon name="clip" /> {file.fileName}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}

/** One of the platform's other builds: version, time, size, expiry, note and its action. */
export function VersionListItem({ version, now }: { version: InstallVersion; now: number }) {
  return (
    <div class="i-stack i-gap-6 install-version-item" data-testid="install-version" data-version-id={version.id}>
      <div class="i-row i-between i-gap-8">
        <div class="i-stack i-gap-2 i-min0">
          <span class="i-row i-gap-6 i-wrap">
            <strong data-testid="install-version-title">{versionTitle(version)}</strong>
            {version.packageKind === 'aab' && <TypeTag version={version} />}
            <DebugSignedTag version={version} />
            {isPackageExpired(version.expireDate, now) && (
              <span class="i-tag i-tag-red" data-testid="version-expired">
                {installText.expired}
              </span>
            )}
          </span>
          <Meta version={version} now={now} />
          {!version.installable && (
            <span class="i-muted i-small" data-testid="install-bundle-hint">
              {packageKindRow(version.packageKind).notInstallableHint}
            </span>
          )}
        </div>
        <InstallAction version={version} />
      </div>
      <Note text={version.description} rows={2} />
    </div>
  );
}
