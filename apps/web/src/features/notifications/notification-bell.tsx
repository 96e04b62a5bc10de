import { useState } from 'react';
import { Badge, Button, Divider, Dropdown, Empty, Flex, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { BADGE_OVERFLOW, RoutePath } from '@release/contract';
import { useIsMobile } from '../../app/use-is-mobile.ts';
import { zh } from '../../locales/zh-CN.ts';
import { NotificationItem } from './notification-item.tsx';
import { useMarkNotifications, useUnreadNotifications } from './use-notifications.ts';

/** Header bell: unread count badge and a dropdown of unread notices (SPEC §2 Home layout). */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const isMobile = useIsMobile();
  const { data } = useUnreadNotifications();
  const mark = useMarkNotifications();
  const rows = data?.rows ?? [];
  const total = data?.total ?? 0;

  const panel = (
    <div className="notification-panel" data-testid="notification-dropdown">
      <Flex justify="space-between" align="center" style={{ padding: '12px 16px 0' }}>
        <Typography.Text strong>{zh.notification.unreadTitle(total)}</Typography.Text>
        <Button
          type="link"
          size="small"
          disabled={total === 0}
          data-testid="notification-read-all"
          onClick={() => mark.mutate({ state: 'READ' })}
        >
          {zh.notification.readAll}
        </Button>
      </Flex>
      <div style={{ maxHeight: 360, overflowY: 'auto', padding: '0 16px' }}>
        {rows.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={zh.notification.noUnread} />
        ) : (
          rows.map((row) => (
            <NotificationItem key={row.id} row={row} onIgnore={(r) => mark.mutate({ id: r.id, state: 'IGNORE' })} />
          ))
        )}
      </div>
      <Divider style={{ margin: 0 }} />
      <div style={{ padding: '8px 16px', textAlign: 'center' }}>
        <Link to={RoutePath.notification} data-testid="notification-view-all" onClick={() => setOpen(false)}>
          {zh.notification.viewAll}
        </Link>
      </div>
    </div>
  );

  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      trigger={['click']}
      placement={isMobile ? 'bottom' : 'bottomRight'}
      popupRender={() => panel}
    >
      <Button type="text" aria-label={zh.header.notifications} data-testid="notification-bell">
        <Badge count={total} overflowCount={BADGE_OVERFLOW} size="small">
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      </Button>
    </Dropdown>
  );
}
