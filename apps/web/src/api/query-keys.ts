import type { AppListFilter } from './apps.api.ts';
import type { NotificationStateFilter } from './messages.api.ts';
import type { UserListParams } from './users.api.ts';

/** Every TanStack Query key in one place, so invalidation matches what was cached. */
export const queryKeys = {
  loginOptions: ['login-options'] as const,
  me: ['me'] as const,
  apps: ['apps'] as const,
  appList: (filter: AppListFilter) => ['apps', filter] as const,
  notifications: ['notifications'] as const,
  notificationList: (state: NotificationStateFilter, current: number) => ['notifications', state, current] as const,
  users: ['users'] as const,
  userList: (params: UserListParams) => ['users', params] as const,
  roles: ['roles'] as const,
  roleList: (pageNo: number, pageSize: number) => ['roles', pageNo, pageSize] as const,
  categories: ['categories'] as const,
  systemSettings: ['system-settings'] as const,
};
