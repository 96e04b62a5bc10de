import { Button, Card, Descriptions, Flex, Tooltip, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import type { AppDetail } from '@release/contract';
import { lazyPart } from '../../../app/components/lazy-part.tsx';
import { zh } from '../../../locales/zh-CN.ts';
import { APP_ICON_SIZE } from '../app.constants.ts';
import { AppIcon } from '../app-icon.tsx';
import { AppTypeTag } from '../app-type-tag.tsx';
import { AppActions } from './app-actions.tsx';
import { AppUserTags } from './app-user-tags.tsx';
import { BundleIdList } from './bundle-id-list.tsx';
import { DownloadAddress, DownloadQrCode } from './download-address.tsx';

/** The install password and its switches (editors only), in their own chunk. */
const InstallAccessFields = lazyPart(() => import('./install-access.tsx'), 'InstallAccessFields');
/** Tester feedback on or off and its bugs' assignees (editors only), in their own chunk. */
const FeedbackSettingsLine = lazyPart(() => import('../../feedback/feedback-settings.tsx'), 'FeedbackSettingsLine');

interface AppHeaderCardProps {
  app: AppDetail;
  onOpenSettings: () => void;
}

/** SPEC §2 App page header: icon, name, type, settings, category, bundle id, description, download address and QR, toggles, users. */
export function AppHeaderCard({ app, onOpenSettings }: AppHeaderCardProps) {
  return (
    <Card data-testid="app-header-card">
      <div className="app-header-grid">
        <div className="app-header-icon" data-testid="app-icon">
          <AppIcon app={app} size={APP_ICON_SIZE} />
        </div>
        <Flex className="app-header-title" gap={8} align="center" wrap>
          <Typography.Title level={4} style={{ margin: 0, minWidth: 0 }} ellipsis data-testid="app-title">
            {app.appName}
          </Typography.Title>
          <AppTypeTag appType={app.appType} />
          <Tooltip title={zh.appPage.settings}>
            <Button
              type="text"
              size="small"
              icon={<SettingOutlined />}
              aria-label={zh.appPage.settings}
              data-testid="app-settings"
              onClick={onOpenSettings}
            />
          </Tooltip>
        </Flex>
        <Flex className="app-header-details" vertical gap={6}>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'category', label: zh.appPage.category, children: app.categoryName },
              { key: 'bundleId', label: zh.appPage.bundleId, children: <BundleIdList bundleIds={app.bundleIds} /> },
              {
                key: 'downloadUrl',
                label: zh.appPage.downloadUrl,
                children: <DownloadAddress url={app.downloadUrl} />,
              },
            ]}
          />
          {app.permit !== 'view' && <InstallAccessFields appId={app.appId} />}
          {app.permit !== 'view' && <FeedbackSettingsLine appId={app.appId} />}
          {app.description ? (
            <Typography.Paragraph
              type="secondary"
              ellipsis={{ rows: 3, expandable: 'collapsible' }}
              style={{ margin: 0, whiteSpace: 'pre-line' }}
              data-testid="app-header-description"
            >
              {app.description}
            </Typography.Paragraph>
          ) : null}
          <AppUserTags users={app.users} />
        </Flex>
        <Flex className="app-header-side" vertical align="center" gap={12}>
          <DownloadQrCode url={app.downloadUrl} />
          <AppActions app={app} />
        </Flex>
      </div>
    </Card>
  );
}
