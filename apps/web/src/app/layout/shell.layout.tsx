import { Layout } from 'antd';
import { Outlet, useLocation } from 'react-router-dom';
import { RoutePath } from '@release/contract';
import { AppHeader } from './app-header.tsx';
import { useAdminRouteGuard } from './use-admin-route-guard.ts';

/** The fixed header around every signed-in page; /403 hides the menu and the bell. */
export function ShellLayout() {
  const { pathname } = useLocation();
  const isAllowed = useAdminRouteGuard();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <AppHeader hideNav={pathname === RoutePath.forbidden} />
      {isAllowed ? <Outlet /> : null}
    </Layout>
  );
}
