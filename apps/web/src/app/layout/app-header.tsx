import { Layout, Menu, type MenuProps } from 'antd';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { NotificationBell } from '../../features/notifications/notification-bell.tsx';
import { zh } from '../../locales/zh-CN.ts';
import { useLiveEvents } from '../live-events.ts';
import { useIsAdmin } from '../session.store.ts';
import { useIsLarkEnabled } from '../use-is-lark-enabled.ts';
import { selectedMenuKey } from './menu-key.ts';
import { UserMenu } from './user-menu.tsx';

/** SPEC §2 Home layout header: title, menu (文档 with Lark, settings for admins), bell and user dropdown. */
export function AppHeader({ hideNav }: { hideNav: boolean }) {
  const isAdmin = useIsAdmin();
  const isLarkEnabled = useIsLarkEnabled();
  // The bell and the open pages hear of news as it happens (GET /api/events).
  useLiveEvents(!hideNav);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const items: MenuProps['items'] = [
    { key: RoutePath.app, label: zh.menu.app },
    // The documents page lists Lark wiki spaces: without a Lark app there is nothing to show.
    ...(isLarkEnabled ? [{ key: RoutePath.wiki, label: zh.menu.wiki }] : []),
    ...(isAdmin ? [{ key: RoutePath.setting, label: zh.menu.setting }] : []),
  ];

  return (
    <Layout.Header className="app-header" data-testid="app-header">
      <Link to={RoutePath.app} className="app-header-title" data-testid="header-title">
        {zh.appTitle}
      </Link>
      {hideNav ? (
        <div style={{ flex: 1 }} />
      ) : (
        <Menu
          data-testid="header-menu"
          mode="horizontal"
          items={items}
          selectedKeys={[selectedMenuKey(pathname)]}
          onClick={({ key }) => navigate(key)}
          style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
        />
      )}
      {hideNav ? null : <NotificationBell />}
      <UserMenu />
    </Layout.Header>
  );
}
