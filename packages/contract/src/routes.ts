/** Web routes of SPEC §2 and the role guard rule of §5. */
export const RoutePath = {
  login: '/login',
  feishuCallback: '/callback/feishu',
  home: '/home',
  app: '/home/app',
  wiki: '/home/wiki',
  category: '/home/category',
  notification: '/home/notification',
  setting: '/home/setting',
  udid: '/home/udid',
  forbidden: '/403',
  publish: '/publish',
  publishSuccess: '/publish-success',
  commit: '/commit',
  calendarDemo: '/test',
} as const;

/** SPEC §5 route guard: below level 100, no path containing setting, udid or category. */
export function isAdminOnlyPath(pathname: string): boolean {
  return /setting|udid|category/.test(pathname);
}
