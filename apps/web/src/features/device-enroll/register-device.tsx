import { useState } from 'react';
import { Alert, Button, Flex, Typography } from 'antd';
import { MobileOutlined } from '@ant-design/icons';
import type { InstallVersion } from '@release/contract';
import { readInstallToken } from '../packages/install.api.ts';
import { detectDevicePlatform } from '../packages/install-env.ts';
import { rememberedUdid, startInstallEnroll } from './device-enroll.api.ts';
import { enrollText } from './device-enroll.strings.ts';

/** Whether the install page should talk about registering: an ad-hoc/development build that does not list this device. */
export function needsRegistration(version: InstallVersion): boolean {
  const limited = version.profileType === 'ad-hoc' || version.profileType === 'development';
  return version.nativePackageType === 'ios' && limited && version.deviceIncluded !== true;
}

/**
 * 注册此设备 on the install page: downloads the Profile Service profile (the phone then sends its UDID),
 * or, once this phone registered, says the build must be re-signed to include it.
 */
export function RegisterDevice({ version, appPath }: { version: InstallVersion; appPath: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const udid = rememberedUdid();
  if (!needsRegistration(version)) return null;
  // Only an iPhone or iPad can send its UDID; anywhere else the steps would lead nowhere.
  if (detectDevicePlatform(navigator.userAgent, navigator.maxTouchPoints) !== 'ios') {
    return <Alert type="info" showIcon title={enrollText.onIphoneTitle} description={enrollText.onIphone} data-testid="register-on-iphone" />;
  }

  const start = async () => {
    setBusy(true);
    setError(null);
    const answer = await startInstallEnroll(appPath, version.id, readInstallToken(appPath));
    setBusy(false);
    if (answer.ok) window.location.assign(answer.data.profileUrl);
    else setError(answer.message);
  };
  const button = (
    <Button icon={<MobileOutlined />} loading={busy} onClick={() => void start()} data-testid="register-device" block={!udid} type={udid ? 'link' : 'default'} style={udid ? { padding: 0 } : undefined}>
      {udid ? enrollText.registerAgain : enrollText.register}
    </Button>
  );

  if (udid && version.deviceIncluded === false) {
    return (
      <Alert
        type="warning"
        showIcon
        title={enrollText.registeredTitle}
        description={
          <Flex vertical gap={4} align="flex-start">
            <Typography.Text style={{ wordBreak: 'break-all' }}>{enrollText.registeredContent(udid)}</Typography.Text>
            {button}
          </Flex>
        }
        data-testid="device-registered"
      />
    );
  }
  return (
    <Alert
      type="info"
      showIcon
      title={enrollText.registerTitle}
      description={
        <Flex vertical gap={8}>
          <Typography.Text>{enrollText.registerIntro}</Typography.Text>
          <ol style={{ margin: 0, paddingInlineStart: 20 }}>
            {enrollText.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {enrollText.safariOnly}
          </Typography.Text>
          {button}
          {error && <Typography.Text type="danger">{`${enrollText.failed}：${error}`}</Typography.Text>}
        </Flex>
      }
      data-testid="register-device-box"
    />
  );
}
