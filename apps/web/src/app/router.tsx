import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { ForbiddenPage } from './components/forbidden.page.tsx';
import { NotFoundPage } from './components/not-found.page.tsx';
import { HomeLayout } from './layout/home.layout.tsx';
import { RequireSession, RootRedirect } from './layout/require-session.tsx';
import { ShellLayout } from './layout/shell.layout.tsx';
import { AppIndexPage } from '../features/apps/app-index.page.tsx';
import { AppPage } from '../features/apps/app.page.tsx';
import { FeishuCallbackPage } from '../features/auth/feishu-callback.page.tsx';
import { LoginPage } from '../features/auth/login.page.tsx';
import { CategoryPage } from '../features/categories/category.page.tsx';
import { CalendarDemoPage, CommitDetailPage, TrendPage } from '../features/commits/commit-pages.page.tsx';
import { NotificationPage } from '../features/notifications/notification.page.tsx';
import { PackageDownloadPage } from '../features/packages/package-download.page.tsx';
import { PublishPage, PublishSuccessPage } from '../features/publish/publish.page.tsx';
import { RoleManagePage } from '../features/settings/role-manage.page.tsx';
import { SettingLayout } from '../features/settings/setting.layout.tsx';
import {
  AppleAccountPage,
  CertificationPage,
  DistributeUserPage,
  SettingUdidPage,
} from '../features/settings/setting-placeholders.page.tsx';
import { UserManagePage } from '../features/settings/user-manage.page.tsx';
import { UdidPage } from '../features/udid/udid.page.tsx';
import { WikiPage } from '../features/wiki/wiki.page.tsx';

/** The routes of SPEC §2; route ids carry the spec's route names. */
export const routes: RouteObject[] = [
  { path: '/', element: <RootRedirect /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/callback/feishu', element: <FeishuCallbackPage /> },
  // Download pages are public: testers install with the app's install password, not an account.
  { path: '/package/:path', element: <PackageDownloadPage /> },
  { path: '/ios/:path', element: <PackageDownloadPage /> },
  { path: '/android/:path', element: <PackageDownloadPage /> },
  {
    element: <RequireSession />,
    children: [
      {
        element: <ShellLayout />,
        children: [
          {
            element: <HomeLayout />,
            children: [
              {
                path: '/home',
                children: [
                  { index: true, element: <Navigate to="app" replace /> },
                  { id: 'app', path: 'app', element: <AppIndexPage /> },
                  { id: 'appWithPath', path: 'app/:path', element: <AppPage /> },
                  { path: 'wiki', element: <WikiPage /> },
                  { path: 'category', element: <CategoryPage /> },
                  { id: 'notification', path: 'notification', element: <NotificationPage /> },
                  { path: 'udid', element: <UdidPage /> },
                  {
                    path: 'setting',
                    element: <SettingLayout />,
                    children: [
                      { index: true, element: <Navigate to="user-manage" replace /> },
                      { path: 'role-manage', element: <RoleManagePage /> },
                      { path: 'user-manage', element: <UserManagePage /> },
                      { path: 'distribute-user', element: <DistributeUserPage /> },
                      { path: 'udid', element: <SettingUdidPage /> },
                      { path: 'certification', element: <CertificationPage /> },
                      { path: 'apple_account', element: <AppleAccountPage /> },
                    ],
                  },
                ],
              },
              { id: 'trend', path: '/trend/:user', element: <TrendPage /> },
            ],
          },
          { id: '403', path: '/403', element: <ForbiddenPage /> },
        ],
      },
      { id: 'publish', path: '/publish', element: <PublishPage /> },
      { path: '/publish-success', element: <PublishSuccessPage /> },
      { path: '/commit', element: <CommitDetailPage /> },
      { path: '/test', element: <CalendarDemoPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export const router = createBrowserRouter(routes);
