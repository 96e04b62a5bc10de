import { Card, Descriptions, Flex, Typography } from 'antd';
import dayjs from 'dayjs';
import type { AppListItem } from '@release/contract';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { zh } from '../../locales/zh-CN.ts';
import { AppIcon } from './app-icon.tsx';
import { AppTypeTag } from './app-type-tag.tsx';

/** What the app list already tells about the app: icon (80x80), name, type, category, last update. */
export function AppHeaderCard({ app }: { app: AppListItem }) {
  const isMobile = useIsMobile();
  return (
    <Card data-testid="app-header-card">
      <Flex gap={16} align="flex-start">
        <AppIcon app={app} size={isMobile ? 56 : 80} />
        <div style={{ flex: 1, minWidth: 0 }}>
          <Flex gap={8} align="center" wrap>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="app-name">
              {app.appName}
            </Typography.Title>
            <AppTypeTag appType={app.appType} />
          </Flex>
          {app.description ? (
            <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: '6px 0 0' }}>
              {app.description}
            </Typography.Paragraph>
          ) : null}
          <Descriptions size="small" column={isMobile ? 1 : 2} style={{ marginTop: 8 }}>
            <Descriptions.Item label={zh.appPage.category}>{app.categoryName}</Descriptions.Item>
            <Descriptions.Item label={zh.appPage.updateTime}>{dayjs(app.updateTime).format('YYYY-MM-DD HH:mm')}</Descriptions.Item>
          </Descriptions>
        </div>
      </Flex>
    </Card>
  );
}
