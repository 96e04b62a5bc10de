import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Flex, Result, Spin, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useParams, useSearchParams } from 'react-router-dom';
import type { InstallAppBrief } from '@release/contract';
import { LoopbackQrWarning } from '../../app/components/loopback-qr-warning.tsx';
import { zh } from '../../locales/zh-CN.ts';
import { APP_QR_LEVEL, APP_QR_SIZE } from '../apps/app.constants.ts';
import { AppIcon } from '../apps/app-icon.tsx';
import { InstallContent } from './install-content.tsx';
import { detectDevicePlatform, detectInAppBrowser } from './install-env.ts';
import { InstallGate } from './install-gate.tsx';
import { INSTALL_QR_ID } from './install-version.tsx';
import { fetchInstallAppBrief } from './install.api.ts';
import { installText } from './install.strings.ts';
import { useInstallPage, type InstallState } from './use-install-page.ts';
import './install.css';

function InAppBanner() {
  const userAgent = navigator.userAgent;
  if (!detectInAppBrowser(userAgent)) return null;
  const ios = detectDevicePlatform(userAgent, navigator.maxTouchPoints) === 'ios';
  return (
    <Alert
      className="install-banner"
      type="info"
      showIcon
      title={installText.inAppTitle}
      description={ios ? installText.inAppIos : installText.inAppOther}
      data-testid="install-inapp-banner"
    />
  );
}

function PageQrCode() {
  // The page itself, for desktop visitors to open it on a phone.
  const url = window.location.href;
  return (
    <Card size="small" className="install-qr" id={INSTALL_QR_ID} data-testid="install-qr" data-qr-value={url}>
      <Flex vertical align="center" gap={8}>
        <Typography.Text strong>{installText.scanTitle}</Typography.Text>
        <QRCodeSVG value={url} size={APP_QR_SIZE} level={APP_QR_LEVEL} marginSize={1} />
        <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
          {installText.scanHint}
        </Typography.Text>
        <LoopbackQrWarning url={url} />
      </Flex>
    </Card>
  );
}

/** The page has no app id: the path picks the letter icon's colour. */
function colorSeed(path: string): number {
  return [...path].reduce((sum, char) => sum + char.charCodeAt(0), 0);
}

/** The app's name and icon: from the page once open, from the gate's brief while the password is asked. */
function AppHeading({ state, brief }: { state: InstallState; brief: InstallAppBrief | null }) {
  const app = state.status === 'ready' ? state.page.app : state.status === 'locked' ? brief : null;
  if (!app) return null;
  const description = state.status === 'ready' ? state.page.app.description : '';
  return (
    <Flex gap={16} align="center" style={{ marginBottom: 16 }}>
      <AppIcon app={{ appId: colorSeed(app.path), appName: app.appName, appIcon: app.appIcon }} size={72} />
      <Flex vertical gap={4} style={{ minWidth: 0 }}>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="install-app-name">
          {app.appName}
        </Typography.Title>
        {description && (
          <Typography.Paragraph type="secondary" style={{ margin: 0, whiteSpace: 'pre-wrap' }} ellipsis={{ rows: 3, expandable: 'collapsible' }}>
            {description}
          </Typography.Paragraph>
        )}
      </Flex>
    </Flex>
  );
}

/** /package/:path, /ios/:path, /android/:path: the testers' public download page (no session needed). */
export function PackageDownloadPage() {
  const { path = '' } = useParams();
  const [searchParams] = useSearchParams();
  const versionId = Number(searchParams.get('id') ?? searchParams.get('packId')) || undefined;
  const { state, isUnlocking, unlock, reload } = useInstallPage(path, versionId);
  const [brief, setBrief] = useState<InstallAppBrief | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setBrief(null);
    void fetchInstallAppBrief(path, abort.signal).then((answer) => {
      if (!abort.signal.aborted) setBrief(answer);
    });
    return () => abort.abort();
  }, [path]);

  useEffect(() => {
    document.title = state.status === 'ready' ? `${state.page.app.appName} - ${zh.appTitle}` : zh.appTitle;
  }, [state]);

  let body: ReactNode;
  switch (state.status) {
    case 'loading':
      body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
      break;
    case 'locked':
      body = <InstallGate error={state.error} answeredAt={state.answeredAt} isUnlocking={isUnlocking} onUnlock={(password) => void unlock(password)} />;
      break;
    case 'missing':
      body = (
        <Result
          status="404"
          title={installText.missingTitle}
          subTitle={
            <Flex vertical gap={4}>
              {/* The server's 下载地址不存在，请确认链接是否正确 would say the title again. */}
              {!state.message.startsWith(installText.missingTitle) && <span>{state.message}</span>}
              <span>{installText.missingHint}</span>
            </Flex>
          }
          data-testid="install-missing"
        />
      );
      break;
    case 'failed':
      body = (
        <Result
          status="warning"
          title={installText.loadFailed}
          subTitle={state.message}
          extra={<Button onClick={reload}>{installText.reload}</Button>}
          data-testid="install-failed"
        />
      );
      break;
    case 'ready':
      body = <InstallContent page={state.page} versionId={versionId} />;
      break;
  }

  return (
    <div className="install-page" data-testid="install-page">
      <InAppBanner />
      <div className="install-layout">
        <Card className="install-main">
          <AppHeading state={state} brief={brief} />
          {body}
        </Card>
        {/* A QR code of a link that leads nowhere would only pass the dead end on. */}
        {state.status !== 'missing' && <PageQrCode />}
      </div>
    </div>
  );
}
