/** @jsxImportSource preact */
import { useEffect, useState } from 'preact/hooks';
import { detectDevicePlatform, detectInAppBrowser } from '../features/packages/install-env.ts';
import { installText } from '../features/packages/install.strings.ts';
import type { InstallBoot } from './boot.ts';
import { InstallGate } from './gate.tsx';
import { Alert, Button, INSTALL_QR_ID, Spinner } from './ui.tsx';
import { useInstallPage, type InstallState } from './use-install-page.ts';

// Not needed for the password box: the versions view and the QR code load beside it, started right away.
const contentModule = import('./content.tsx');
const qrModule = import('./qr-code.tsx');

/** A module loading in the background: null until it is there. */
function useModule<T>(load: Promise<T>): T | null {
  const [loaded, setLoaded] = useState<T | null>(null);
  useEffect(() => {
    let live = true;
    void load.then((module) => live && setLoaded(() => module));
    return () => {
      live = false;
    };
  }, [load]);
  return loaded;
}

/** Browser tab title: the app's name, then what the page is for. */
export const pageTitle = (appName: string | null) => (appName ? `${appName} - 安装` : '安装 - 发布系统');

function InAppBanner() {
  const userAgent = navigator.userAgent;
  if (!detectInAppBrowser(userAgent)) return null;
  const ios = detectDevicePlatform(userAgent, navigator.maxTouchPoints) === 'ios';
  return (
    <Alert type="info" title={installText.inAppTitle} class="install-banner" testId="install-inapp-banner">
      {ios ? installText.inAppIos : installText.inAppOther}
    </Alert>
  );
}

function PageQrCode() {
  // The page itself, for desktop visitors to open it on a phone.
  const url = window.location.href;
  const qr = useModule(qrModule);
  return (
    <section class="i-card install-qr" id={INSTALL_QR_ID} data-testid="install-qr" data-qr-value={url}>
      <strong>{installText.scanTitle}</strong>
      {qr ? <qr.QrSvg value={url} /> : <span class="i-qr-placeholder" />}
      <span class="i-muted i-small i-center">{installText.scanHint}</span>
      {qr && <qr.LoopbackQrWarning url={url} />}
    </section>
  );
}

function Content(props: { page: Extract<InstallState, { status: 'ready' }>['page']; versionId: number | undefined }) {
  const content = useModule(contentModule);
  return content ? <content.InstallContent {...props} /> : <Spinner />;
}

/** A letter icon in one of a few colours when the app has no icon of its own. */
function AppIcon({ name, icon, seed }: { name: string; icon: string | null; seed: string }) {
  if (icon) return <img class="i-app-icon" src={icon} width={72} height={72} alt="" />;
  const hue = [...seed].reduce((sum, char) => sum + char.charCodeAt(0), 0) % 6;
  return <span class={`i-app-icon i-app-letter i-hue-${hue}`}>{[...name][0] ?? '?'}</span>;
}

function AppHeading({ state, boot }: { state: InstallState; boot: InstallBoot | null }) {
  const app = state.status === 'ready' ? state.page.app : state.status === 'missing' ? null : boot?.app;
  if (!app) return null;
  const description = state.status === 'ready' ? state.page.app.description : '';
  return (
    <header class="i-row i-gap-16 i-heading">
      <AppIcon name={app.appName} icon={app.appIcon} seed={app.path} />
      <div class="i-stack i-gap-4 i-min0">
        <h1 class="i-app-name" data-testid="install-app-name">
          {app.appName}
        </h1>
        {description && <p class="i-muted i-pre i-clamp-3">{description}</p>}
      </div>
    </header>
  );
}

function Missing({ message }: { message: string }) {
  return (
    <div class="i-result" data-testid="install-missing">
      <div class="i-result-code">404</div>
      <h2>{installText.missingTitle}</h2>
      {/* The server's 下载地址不存在，请确认链接是否正确 would say the title again. */}
      {!message.startsWith(installText.missingTitle) && <p>{message}</p>}
      <p class="i-muted">{installText.missingHint}</p>
    </div>
  );
}

/** /package/:path, /ios/:path, /android/:path: the testers' install page. */
export function InstallApp({
  path,
  versionId,
  boot,
}: {
  path: string;
  versionId: number | undefined;
  boot: InstallBoot | null;
}) {
  const { state, isUnlocking, unlock, reload } = useInstallPage(path, versionId, boot);
  const appName =
    state.status === 'ready'
      ? state.page.app.appName
      : state.status === 'missing'
        ? null
        : (boot?.app?.appName ?? null);

  useEffect(() => {
    document.title = pageTitle(appName);
  }, [appName]);

  let body;
  switch (state.status) {
    case 'loading':
      body = <Spinner />;
      break;
    case 'locked':
      body = (
        <InstallGate
          error={state.error}
          answeredAt={state.answeredAt}
          isUnlocking={isUnlocking}
          onUnlock={(password) => void unlock(password)}
        />
      );
      break;
    case 'missing':
      body = <Missing message={state.message} />;
      break;
    case 'failed':
      body = (
        <div class="i-result" data-testid="install-failed">
          <h2>{installText.loadFailed}</h2>
          <p class="i-muted">{state.message}</p>
          <Button onClick={reload}>{installText.reload}</Button>
        </div>
      );
      break;
    case 'ready':
      body = <Content page={state.page} versionId={versionId} />;
      break;
  }

  return (
    <div class="install-page" data-testid="install-page">
      <InAppBanner />
      <div class="install-layout">
        <main class="i-card install-main">
          <AppHeading state={state} boot={boot} />
          {body}
        </main>
        {/* A QR code of a link that leads nowhere would only pass the dead end on. */}
        {state.status !== 'missing' && <PageQrCode />}
      </div>
    </div>
  );
}
