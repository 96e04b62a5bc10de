import { Avatar, Button, Descriptions, Flex, Result, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { RoutePath, type AppVersionRow } from '@release/contract';
import { queryKeys } from '../../api/query-keys.ts';
import { fetchAppVersions } from '../../api/versions.api.ts';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { LoopbackQrWarning } from '../../app/components/loopback-qr-warning.tsx';
import { StandalonePage } from '../../app/components/standalone-page.tsx';
import { APP_QR_LEVEL, APP_QR_SIZE } from '../apps/app.constants.ts';
import { AppIcon } from '../apps/app-icon.tsx';
import { useAppDetail } from '../apps/use-app-detail.ts';
import { PackageTypeTag } from '../versions/package-type.tsx';
import { formatSize, versionTitle } from '../versions/version-format.ts';
import { publishText } from './publish.strings.ts';

const RECENT_PAGE = { pageNo: 1, pageSize: 100 } as const;

function versionFromState(state: unknown, versionId: number): AppVersionRow | null {
  if (typeof state !== 'object' || state === null || !('version' in state)) return null;
  const version = (state as { version: AppVersionRow }).version;
  return version.id === versionId ? version : null;
}

/** The new version: from the publish page, or looked up among the app's newest ones after a reload. */
function usePublishedVersion(appId: number, versionId: number) {
  const location = useLocation();
  const handed = versionFromState(location.state, versionId);
  const params = { appId, ...RECENT_PAGE };
  const list = useQuery({
    queryKey: queryKeys.versionList(params),
    queryFn: ({ signal }) => fetchAppVersions(params, signal),
    enabled: handed === null && appId > 0,
  });
  if (handed) return { version: handed, isPending: false };
  return { version: list.data?.rows.find((v) => v.id === versionId) ?? null, isPending: appId > 0 && list.isPending };
}

/** /publish-success?appId&versionId: the published version, the app's download QR code and links. */
export function PublishSuccessPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const appId = Number(searchParams.get('appId')) || 0;
  const versionId = Number(searchParams.get('versionId')) || 0;
  const { version, isPending } = usePublishedVersion(appId, versionId);
  const app = useAppDetail(appId > 0 ? appId : null);

  if (isPending || (appId > 0 && app.isPending)) {
    return (
      <StandalonePage>
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      </StandalonePage>
    );
  }
  if (!version || !app.data) {
    return (
      <StandalonePage>
        <FeatureEmpty
          title={publishText.versionMissing}
          content={publishText.versionMissingContent}
          testId="publish-success-missing"
        />
      </StandalonePage>
    );
  }
  const detail = app.data;
  const icon = version.iconUrl ? (
    <Avatar shape="square" size={64} src={version.iconUrl} alt={detail.appName} />
  ) : (
    <AppIcon app={detail} size={64} />
  );
  return (
    <StandalonePage>
      <Result
        status="success"
        title={publishText.successTitle}
        data-testid="publish-success"
        style={{ padding: '8px 0' }}
        extra={[
          <Button
            key="app"
            type="primary"
            data-testid="publish-success-app"
            onClick={() => navigate(`${RoutePath.app}/${encodeURIComponent(detail.path)}`)}
          >
            {publishText.openAppPage}
          </Button>,
          <Button key="again" onClick={() => navigate(`${RoutePath.publish}?appId=${detail.appId}`)}>
            {publishText.publishAgain}
          </Button>,
        ]}
      >
        <Flex gap={24} wrap justify="center" align="center">
          <Flex vertical gap={12} style={{ minWidth: 240, flex: '1 1 260px' }}>
            <Flex gap={12} align="center">
              {icon}
              <div style={{ minWidth: 0 }}>
                <Typography.Title level={5} style={{ margin: 0 }} ellipsis>
                  {version.displayName ?? detail.appName}
                </Typography.Title>
                <PackageTypeTag version={version} />
              </div>
            </Flex>
            <Descriptions size="small" column={1}>
              <Descriptions.Item label={publishText.version}>
                <span data-testid="publish-success-version">{versionTitle(version)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={publishText.size}>{formatSize(version.appSize)}</Descriptions.Item>
              {version.description && (
                <Descriptions.Item label={publishText.note}>
                  <span style={{ whiteSpace: 'pre-wrap' }}>{version.description}</span>
                </Descriptions.Item>
              )}
            </Descriptions>
          </Flex>
          <Flex vertical align="center" gap={4} data-testid="publish-success-qr" data-qr-value={detail.downloadUrl}>
            <QRCodeSVG value={detail.downloadUrl} size={APP_QR_SIZE} level={APP_QR_LEVEL} marginSize={1} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {publishText.scanToInstall}
            </Typography.Text>
            <Typography.Link href={detail.downloadUrl} target="_blank" rel="noreferrer" style={{ fontSize: 12 }}>
              {detail.downloadUrl}
            </Typography.Link>
            <LoopbackQrWarning url={detail.downloadUrl} />
          </Flex>
        </Flex>
      </Result>
    </StandalonePage>
  );
}
