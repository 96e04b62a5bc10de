import { Layout } from 'antd';
import { Outlet } from 'react-router-dom';
import { AppFilterProvider } from '../../features/apps/app-filter.context.tsx';
import { AppSider } from '../../features/apps/app-sider.tsx';
import { useSectionTitle } from '../use-document-title.ts';

/** Sider with the app list beside the page content (SPEC §2 Home layout). */
export function HomeLayout() {
  useSectionTitle();
  return (
    <AppFilterProvider>
      <Layout hasSider>
        <AppSider />
        <Layout.Content className="app-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </AppFilterProvider>
  );
}
