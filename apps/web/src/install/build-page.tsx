/** @jsxImportSource preact */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { InstallPage, InstallVersion } from '@release/contract';
import { copyText } from '../app/clipboard.ts';
import { installText } from '../features/packages/install.strings.ts';
import { FeedbackEntry } from './feedback-entry.tsx';
import { Alert, Button, Icon } from './ui.tsx';
import { LatestVersion } from './version.tsx';

export const buildText = {
  heading: '此版本',
  details: '版本信息',
  link: '本版本链接',
  copy: '复制链接',
  copied: '已复制',
  copyFailed: '复制失败，请手动复制',
  all: '查看全部版本',
} as const;

/** This build's own address: the page's path with `?id=` and nothing else (no password, no pass in it). */
export function buildUrl(versionId: number): string {
  return `${window.location.origin}${window.location.pathname}?id=${versionId}`;
}

function CopyLink({ url }: { url: string }) {
  const [said, setSaid] = useState<string | null>(null);
  return (
    <div class="i-stack i-gap-4">
      <strong>{buildText.link}</strong>
      <div class="i-row i-gap-8 i-min0">
        <a class="i-ellipsis i-min0" href={url} data-testid="install-build-link">
          {url}
        </a>
        <Button
          look="link"
          icon="link"
          testId="install-copy-link"
          onClick={() => void copyText(url).then((done) => setSaid(done ? buildText.copied : buildText.copyFailed))}
        >
          {said ?? buildText.copy}
        </Button>
      </div>
    </div>
  );
}

/** `?id=<build>`: one build's own page — its action, note, what the console knows of it, its link (the QR code beside is of it too). */
export function BuildPage({ page, version }: { page: InstallPage; version: InstallVersion }) {
  return (
    <div class="i-stack i-gap-16" data-testid="install-build">
      <a class="i-row i-gap-4" href={window.location.pathname} data-testid="install-all-versions">
        ‹ {buildText.all}
      </a>
      {version.nativePackageType === 'ios' && !page.secure && (
        <Alert type="warning" title={installText.httpsTitle} testId="install-https-alert">
          {installText.httpsContent}
        </Alert>
      )}
      <LatestVersion
        version={version}
        now={Date.now()}
        appPath={page.app.path}
        canRegister={page.access !== 'public'}
        heading={buildText.heading}
      />
      {page.feedback && <FeedbackEntry path={page.app.path} version={version} />}
      {version.details && version.details.length > 0 && (
        <section class="i-stack i-gap-8">
          <strong>{buildText.details}</strong>
          <dl class="i-details" data-testid="install-details">
            {version.details.map((row) => (
              <Fragment key={row.label}>
                <dt>{row.label}</dt>
                <dd>{row.value}</dd>
              </Fragment>
            ))}
          </dl>
        </section>
      )}
      <CopyLink url={buildUrl(version.id)} />
      <span class="i-muted i-small">
        <Icon name="qr" /> {installText.scanHint}
      </span>
    </div>
  );
}
