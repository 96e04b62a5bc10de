import { Alert, Avatar, Button, Flex, Typography } from 'antd';
import { AndroidFilled, AppleFilled, ChromeOutlined, DownloadOutlined, PaperClipOutlined, QrcodeOutlined } from '@ant-design/icons';
import { isPackageExpired, type InstallVersion } from '@release/contract';
import { PackageTypeIcon, PackageTypeTag } from '../versions/package-type.tsx';
import { ExpiredTag } from '../versions/version-columns.tsx';
import { formatSize, formatVersionTime, isHtmlPackage, versionTitle } from '../versions/version-format.ts';
import { needsRegistration, RegisterDevice } from '../device-enroll/register-device.tsx';
import { currentDevicePlatform, installsElsewhere } from './install-env.ts';
import { installText } from './install.strings.ts';

/**
 * The right action per package: 安装 (iOS, itms-services), 下载安装 (Android), 打开 (html), else 下载.
 * A package this device cannot install (an ipa off an iPhone/iPad, an apk on one) offers its file only: 下载 IPA/APK.
 */
export function InstallAction({ version, large = false }: { version: InstallVersion; large?: boolean }) {
  // The newest package's button is the page's main action; older ones stay quiet.
  const common = { size: large ? ('large' as const) : ('middle' as const), block: large, type: large ? ('primary' as const) : ('default' as const), 'data-testid': 'install-action' };
  if (!version.installable) {
    // An .aab: a file for Google Play or bundletool, never installed from here.
    return (
      <Button {...common} size="middle" type="default" block={false} icon={<DownloadOutlined />} href={version.downloadUrl} download={version.fileName}>
        {installText.downloadBundle}
      </Button>
    );
  }
  const elsewhere = installsElsewhere(version.nativePackageType, currentDevicePlatform());
  if (elsewhere) {
    // The way to install is the hint above; the file is for Apple Configurator, adb or a colleague: a plain link.
    const plain = large ? { type: 'link' as const, style: { paddingInline: 0 } } : {};
    return (
      <Button {...common} size="middle" type="default" block={false} {...plain} icon={<DownloadOutlined />} href={version.downloadUrl} download={version.fileName}>
        {installText.downloadFile[elsewhere]}
      </Button>
    );
  }
  switch (version.nativePackageType) {
    case 'ios':
      return (
        <Button {...common} icon={<AppleFilled />} href={version.installUrl ?? undefined} disabled={!version.installUrl}>
          {installText.install}
        </Button>
      );
    case 'android':
      return (
        <Button {...common} icon={<AndroidFilled />} href={version.downloadUrl} download={version.fileName}>
          {installText.downloadInstall}
        </Button>
      );
    default:
      if (version.openUrl && isHtmlPackage(version)) {
        // Shown by the server sandboxed in its own origin; the page cannot reach this site's sign-in.
        return (
          <Button {...common} icon={<ChromeOutlined />} href={version.openUrl} target="_blank" rel="noreferrer">
            {installText.open}
          </Button>
        );
      }
      return (
        <Button {...common} icon={<DownloadOutlined />} href={version.downloadUrl} download={version.fileName}>
          {installText.download}
        </Button>
      );
  }
}

function Meta({ version, now }: { version: InstallVersion; now: number }) {
  const parts = [formatSize(version.appSize), formatVersionTime(version.createTime, now)];
  if (version.minimumOs) parts.push(`${installText.minimumOs} ${version.minimumOs}`);
  return (
    <Typography.Text type="secondary" style={{ fontSize: 13 }}>
      {parts.join(' · ')}
    </Typography.Text>
  );
}

function Note({ text, rows }: { text: string; rows: number }) {
  if (!text) return <Typography.Text type="secondary">{installText.noNote}</Typography.Text>;
  return (
    <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }} ellipsis={{ rows, expandable: 'collapsible' }}>
      {text}
    </Typography.Paragraph>
  );
}

/** The id of the page's QR code card (package-download.page.tsx). */
export const INSTALL_QR_ID = 'install-qr';

function scrollToQrCode() {
  document.getElementById(INSTALL_QR_ID)?.scrollIntoView({ behavior: 'smooth', block: 'center' });
}

/** In place of the install button, when the package installs on another kind of device: scan the page's QR code there. */
function InstallElsewhere({ version, platform }: { version: InstallVersion; platform: 'ios' | 'android' }) {
  // For ad-hoc/development builds the registration box under it already tells how to open the page on the iPhone.
  const hint = needsRegistration(version) ? undefined : installText.elsewhereHint[platform];
  return (
    <Flex vertical gap={4}>
      <Alert type="info" showIcon icon={<QrcodeOutlined />} title={installText.elsewhereTitle[platform]} description={hint} data-testid="install-elsewhere" />
      <Flex gap={16} wrap>
        <InstallAction version={version} large />
        {/* In one column the QR code is under the packages, out of sight. */}
        <Button type="link" icon={<QrcodeOutlined />} className="install-show-qr" style={{ paddingInline: 0 }} onClick={scrollToQrCode} data-testid="install-show-qr">
          {installText.showQr}
        </Button>
      </Flex>
    </Flex>
  );
}

/** The newest package of the chosen platform, with its big action button. */
export function LatestVersion({ version, now, appPath }: { version: InstallVersion; now: number; appPath: string }) {
  const expired = isPackageExpired(version.expireDate, now);
  const elsewhere = installsElsewhere(version.nativePackageType, currentDevicePlatform());
  const hint = version.nativePackageType === 'ios' && version.profileType ? installText.profileHints[version.profileType] : undefined;
  return (
    <Flex vertical gap={12} className="install-latest" data-testid="install-version" data-version-id={version.id}>
      <Flex gap={12} align="center">
        <Avatar
          shape="square"
          size={48}
          src={version.iconUrl ?? undefined}
          icon={version.iconUrl ? undefined : <PackageTypeIcon version={version} size={22} />}
          style={version.iconUrl ? undefined : { background: '#f0f0f0', color: 'rgba(0,0,0,0.65)' }}
        />
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {installText.latest}
          </Typography.Text>
          <Typography.Text strong style={{ fontSize: 17 }} ellipsis>
            {versionTitle(version)} <PackageTypeTag version={version} />
          </Typography.Text>
          <Meta version={version} now={now} />
        </Flex>
      </Flex>
      {expired && <Alert type="warning" showIcon title={installText.expired} description={installText.expiredHint} data-testid="install-expired" />}
      {elsewhere ? <InstallElsewhere version={version} platform={elsewhere} /> : <InstallAction version={version} large />}
      <RegisterDevice version={version} appPath={appPath} />
      {hint && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {hint}
        </Typography.Text>
      )}
      <div>
        <Typography.Text strong>{installText.note}</Typography.Text>
        <Note text={version.description} rows={6} />
      </div>
      {version.attachFiles.length > 0 && (
        <Flex vertical gap={2}>
          <Typography.Text strong>{installText.attachments}</Typography.Text>
          {version.attachFiles.map((file) => (
            <Typography.Link key={file.url} href={file.url} target="_blank" rel="noreferrer" ellipsis>
              <PaperClipOutlined /> {file.fileName}
            </Typography.Link>
          ))}
        </Flex>
      )}
    </Flex>
  );
}

/** One of the older packages of the platform: version, time, size, expiry, note and its action. */
export function VersionListItem({ version, now }: { version: InstallVersion; now: number }) {
  return (
    <Flex vertical gap={6} className="install-version-item" data-testid="install-version" data-version-id={version.id}>
      <Flex justify="space-between" align="center" gap={8}>
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          <Flex gap={6} align="center" wrap>
            <Typography.Text strong>{versionTitle(version)}</Typography.Text>
            <ExpiredTag expireDate={version.expireDate} now={now} />
          </Flex>
          {!version.installable && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="install-bundle-hint">
              {installText.bundleHint}
            </Typography.Text>
          )}
          <Meta version={version} now={now} />
        </Flex>
        <InstallAction version={version} />
      </Flex>
      <Note text={version.description} rows={2} />
    </Flex>
  );
}
