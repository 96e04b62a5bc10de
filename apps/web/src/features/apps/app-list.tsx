import { Alert, Badge, Empty, Flex, Spin, Tooltip, Typography } from 'antd';
import { StarFilled } from '@ant-design/icons';
import { BADGE_OVERFLOW, type AppListItem } from '@release/contract';
import { zh } from '../../locales/zh-CN.ts';
import { AppListEmpty } from './app-empty.tsx';
import { AppIcon } from './app-icon.tsx';
import { AppTypeTag } from './app-type-tag.tsx';

interface AppListProps {
  apps: AppListItem[];
  hasAnyApp: boolean;
  isLoading: boolean;
  error: Error | null;
  currentAppId: number | null;
  compact: boolean;
  onChoose: (app: AppListItem) => void;
}

function AppRow({
  app,
  isCurrent,
  compact,
  onChoose,
}: {
  app: AppListItem;
  isCurrent: boolean;
  compact: boolean;
  onChoose: () => void;
}) {
  const className = `app-list-item${isCurrent ? ' is-current' : ''}`;
  if (compact) {
    return (
      <Tooltip title={app.appName} placement="right">
        <button
          type="button"
          className={className}
          style={{ padding: 6, justifyContent: 'center' }}
          onClick={onChoose}
          data-testid="app-list-item"
        >
          <Badge dot={app.unreadMessage > 0}>
            <AppIcon app={app} size={28} />
          </Badge>
        </button>
      </Tooltip>
    );
  }
  return (
    <button type="button" className={className} onClick={onChoose} data-testid="app-list-item" data-app-path={app.path}>
      <AppIcon app={app} />
      <div style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text ellipsis style={{ display: 'block' }}>
          {app.appName}
        </Typography.Text>
        <Flex gap={6} align="center">
          <AppTypeTag appType={app.appType} />
          {app.collected ? (
            <StarFilled style={{ color: '#faad14', fontSize: 12 }} aria-label={zh.sider.collected} />
          ) : null}
        </Flex>
      </div>
      <Badge count={app.unreadMessage} overflowCount={BADGE_OVERFLOW} size="small" />
    </button>
  );
}

/** The sider's app list with its loading, error and empty states. */
export function AppList({ apps, hasAnyApp, isLoading, error, currentAppId, compact, onChoose }: AppListProps) {
  let body;
  if (isLoading) body = <Spin style={{ display: 'block', margin: '24px auto' }} />;
  else if (error)
    body = compact ? null : <Alert type="error" showIcon title={zh.sider.listError} description={error.message} />;
  else if (!hasAnyApp) body = compact ? null : <AppListEmpty />;
  else if (apps.length === 0)
    body = compact ? null : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={zh.sider.noMatch} />;
  else
    body = apps.map((app) => (
      <AppRow
        key={app.appId}
        app={app}
        isCurrent={app.appId === currentAppId}
        compact={compact}
        onChoose={() => onChoose(app)}
      />
    ));
  return (
    <Flex vertical gap={2} data-testid="app-list">
      {body}
    </Flex>
  );
}
