import { Button, Empty, Typography } from 'antd';
import { FeatureEmpty } from '../../app/components/feature-empty.tsx';
import { useIsAdmin } from '../../app/session.store.ts';
import { zh } from '../../locales/zh-CN.ts';

/** The sider's short form of the same message. */
export function AppListEmpty() {
  const isAdmin = useIsAdmin();
  return (
    <div data-testid="app-list-empty" style={{ padding: '16px 0' }}>
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <Typography.Text strong style={{ display: 'block' }}>
              {isAdmin ? zh.appEmpty.adminTitle : zh.appEmpty.userTitle}
            </Typography.Text>
            <Typography.Text type="secondary">
              {isAdmin ? zh.appEmpty.adminContent : zh.appEmpty.userContent}
            </Typography.Text>
          </>
        }
      />
    </div>
  );
}

/** No apps: admins are asked to add one, others to contact an admin (SPEC §2). */
export function AppEmpty({ onAdd }: { onAdd?: () => void }) {
  const isAdmin = useIsAdmin();
  if (!isAdmin) return <FeatureEmpty title={zh.appEmpty.userTitle} content={zh.appEmpty.userContent} />;
  return (
    <FeatureEmpty title={zh.appEmpty.adminTitle} content={zh.appEmpty.adminContent}>
      {onAdd ? (
        <Button type="primary" onClick={onAdd} data-testid="empty-add-app">
          {zh.addApp.title}
        </Button>
      ) : null}
    </FeatureEmpty>
  );
}
