/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import type { InstallVersion } from '@release/contract';
import { enrollText } from '../features/device-enroll/device-enroll.strings.ts';
import { currentDevicePlatform } from '../features/packages/install-env.ts';
import { rememberedUdid, startInstallEnroll } from './install.api.ts';
import { Alert, Button } from './ui.tsx';

/** Whether the page should talk about registering: an ad-hoc/development build that does not list this device. */
export function needsRegistration(version: InstallVersion): boolean {
  const limited = version.profileType === 'ad-hoc' || version.profileType === 'development';
  return version.nativePackageType === 'ios' && limited && version.deviceIncluded !== true;
}

/**
 * 注册此设备: downloads the Profile Service profile (the phone then sends its UDID), or, once this phone registered,
 * says the build must be re-signed to include it. Off an iPhone/iPad it says where to do it.
 */
export function RegisterDevice({ version, appPath }: { version: InstallVersion; appPath: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const udid = rememberedUdid();
  if (!needsRegistration(version)) return null;
  if (currentDevicePlatform() !== 'ios') {
    return (
      <Alert type="info" title={enrollText.onIphoneTitle} testId="register-on-iphone">
        {enrollText.onIphone}
      </Alert>
    );
  }
  const start = async () => {
    setBusy(true);
    setError(null);
    const answer = await startInstallEnroll(appPath, version.id);
    setBusy(false);
    if (answer.ok) window.location.assign(answer.data.profileUrl);
    else setError(answer.message);
  };
  const button = (
    <Button
      icon="mobile"
      busy={busy}
      onClick={() => void start()}
      testId="register-device"
      look={udid ? 'link' : 'default'}
      block={!udid}
    >
      {udid ? enrollText.registerAgain : enrollText.register}
    </Button>
  );
  if (udid && version.deviceIncluded === false) {
    return (
      <Alert type="warning" title={enrollText.registeredTitle} testId="device-registered">
        <p class="i-break">{enrollText.registeredContent(udid)}</p>
        {button}
      </Alert>
    );
  }
  return (
    <Alert type="info" title={enrollText.registerTitle} testId="register-device-box">
      <p>{enrollText.registerIntro}</p>
      <ol class="i-steps">
        {enrollText.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p class="i-muted i-small">{enrollText.safariOnly}</p>
      {button}
      {error && <p class="i-danger">{`${enrollText.failed}：${error}`}</p>}
    </Alert>
  );
}
