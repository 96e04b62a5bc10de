import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { lazyPage } from './components/lazy-page.tsx';
import { InstallPageRedirect } from './components/install-page-redirect.tsx';
import { HomeLayout } from './layout/home.layout.tsx';
import { RequireSession, RootRedirect } from './layout/require-session.tsx';
import { ShellLayout } from './layout/shell.layout.tsx';

// Pages load on first use, each in its own chunk; the layouts around them stay in the entry.
const ForbiddenPage = lazyPage(() => import('./components/forbidden.page.tsx'), 'ForbiddenPage');
const NotFoundPage = lazyPage(() => import('./components/not-found.page.tsx'), 'NotFoundPage');
const SettingLayout = lazyPage(() => import('../features/settings/setting.layout.tsx'), 'SettingLayout');
const AppIndexPage = lazyPage(() => import('../features/apps/app-index.page.tsx'), 'AppIndexPage');
const AppPage = lazyPage(() => import('../features/apps/app.page.tsx'), 'AppPage');
const FeishuCallbackPage = lazyPage(() => import('../features/auth/feishu-callback.page.tsx'), 'FeishuCallbackPage');
const LoginPage = lazyPage(() => import('../features/auth/login.page.tsx'), 'LoginPage');
const CategoryPage = lazyPage(() => import('../features/categories/category.page.tsx'), 'CategoryPage');
const commitPages = () => import('../features/commits/commit-pages.page.tsx');
const CalendarDemoPage = lazyPage(commitPages, 'CalendarDemoPage');
const CommitDetailPage = lazyPage(commitPages, 'CommitDetailPage');
const TrendPage = lazyPage(commitPages, 'TrendPage');
const NotificationPage = lazyPage(() => import('../features/notifications/notification.page.tsx'), 'NotificationPage');
const publishPages = () => import('../features/publish/publish.page.tsx');
const PublishPage = lazyPage(publishPages, 'PublishPage');
const PublishSuccessPage = lazyPage(publishPages, 'PublishSuccessPage');
const RoleManagePage = lazyPage(() => import('../features/settings/role-manage.page.tsx'), 'RoleManagePage');
const AppleAccountPage = lazyPage(
  () => import('../features/apple-accounts/apple-account.page.tsx'),
  'AppleAccountPage',
);
const CertificationPage = lazyPage(
  () => import('../features/certificates/certification.page.tsx'),
  'CertificationPage',
);
const DistributeUserPage = lazyPage(
  () => import('../features/settings/distribute-user.page.tsx'),
  'DistributeUserPage',
);
const SystemSettingPage = lazyPage(() => import('../features/settings/system-setting.page.tsx'), 'SystemSettingPage');
const DeliveryLogPage = lazyPage(() => import('../features/messaging/delivery-log.page.tsx'), 'DeliveryLogPage');
const JobSchedulesPage = lazyPage(() => import('../features/settings/job-schedules.page.tsx'), 'JobSchedulesPage');
const StoragePage = lazyPage(() => import('../features/settings/storage.page.tsx'), 'StoragePage');
const UserManagePage = lazyPage(() => import('../features/settings/user-manage.page.tsx'), 'UserManagePage');
const TokensPage = lazyPage(() => import('../features/tokens/tokens.page.tsx'), 'TokensPage');
const udidPages = () => import('../features/udid/udid.page.tsx');
const SettingUdidPage = lazyPage(udidPages, 'SettingUdidPage');
const UdidPage = lazyPage(udidPages, 'UdidPage');
const WikiPage = lazyPage(() => import('../features/wiki/wiki.page.tsx'), 'WikiPage');

/** The routes of SPEC §2 (plus /home/tokens and /home/setting/system); route ids carry the spec's route names. */
export const routes: RouteObject[] = [
  { path: '/', element: <RootRedirect /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/callback/feishu', element: <FeishuCallbackPage /> },
  // Install pages are their own small entry (install.html, served by the server): reached from inside the console, they load it.
  { path: '/package/:path', element: <InstallPageRedirect /> },
  { path: '/ios/:path', element: <InstallPageRedirect /> },
  { path: '/android/:path', element: <InstallPageRedirect /> },
  // So is the device registration's result page (the phone comes from an install page and goes back to it).
  { path: '/device-enroll/result', element: <InstallPageRedirect /> },
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
                  { path: 'tokens', element: <TokensPage /> },
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
                      { path: 'system', element: <SystemSettingPage /> },
                      { path: 'delivery-log', element: <DeliveryLogPage /> },
                      { path: 'jobs', element: <JobSchedulesPage /> },
                      { path: 'storage', element: <StoragePage /> },
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
