import { useState } from 'react';
import { Alert, Divider, Empty, Flex, Segmented, Typography } from 'antd';
import { useLocation } from 'react-router-dom';
import type { InstallPage, NativePackageType } from '@release/contract';
import { choosePlatform, detectDevicePlatform, platformOfRoute } from './install-env.ts';
import { LatestVersion, VersionListItem } from './install-version.tsx';
import { installText } from './install.strings.ts';

const PLATFORM_ORDER: readonly NativePackageType[] = ['ios', 'android', 'web', 'mac'];

/** The unlocked page: a platform switch, its newest package up front, then its older ones. */
export function InstallContent({ page, versionId }: { page: InstallPage; versionId: number | undefined }) {
  const location = useLocation();
  const available = PLATFORM_ORDER.filter((type) => page.versions.some((v) => v.nativePackageType === type));
  // The server puts an asked-for version first; otherwise versions are newest first.
  const asked = versionId !== undefined ? page.versions.find((v) => v.id === versionId) : undefined;
  const [platform, setPlatform] = useState<NativePackageType | null>(() =>
    choosePlatform(available, [
      asked?.nativePackageType ?? null,
      platformOfRoute(location.pathname),
      detectDevicePlatform(navigator.userAgent, navigator.maxTouchPoints),
      page.versions[0]?.nativePackageType ?? null,
    ]),
  );
  const now = Date.now();

  if (platform === null || available.length === 0) {
    return (
      <Empty
        description={
          <Flex vertical gap={4}>
            <span>{installText.noVersions}</span>
            <Typography.Text type="secondary">{installText.noVersionsContent}</Typography.Text>
          </Flex>
        }
        data-testid="install-empty"
      />
    );
  }
  const ofPlatform = page.versions.filter((v) => v.nativePackageType === platform);
  // The platform's main action is its newest build a device installs itself (never an .aab).
  const latest = (asked?.nativePackageType === platform ? asked : undefined) ?? ofPlatform.find((v) => v.installable);
  const older = ofPlatform.filter((v) => v !== latest);

  return (
    <Flex vertical gap={16}>
      {page.askedVersionMissing && <Alert type="warning" showIcon title={installText.askedVersionMissing} data-testid="install-version-missing" />}
      {available.length > 1 && (
        <Segmented<NativePackageType>
          block
          value={platform}
          onChange={setPlatform}
          options={available.map((type) => ({ value: type, label: installText.platforms[type] }))}
          data-testid="install-platform"
        />
      )}
      {platform === 'ios' && !page.secure && (
        <Alert type="warning" showIcon title={installText.httpsTitle} description={installText.httpsContent} data-testid="install-https-alert" />
      )}
      {latest ? <LatestVersion version={latest} now={now} appPath={page.app.path} /> : <Empty description={installText.noPlatformVersions(installText.platforms[platform])} />}
      {older.length > 0 && (
        <div>
          <Divider titlePlacement="start" style={{ margin: '8px 0' }}>
            {installText.recent}
          </Divider>
          <Flex vertical className="install-version-list">
            {older.map((version) => (
              <VersionListItem key={version.id} version={version} now={now} />
            ))}
          </Flex>
        </div>
      )}
    </Flex>
  );
}
