import type { ApiTokenListParams } from './api-tokens.api.ts';
import type { AppListFilter } from './apps.api.ts';
import type { DeviceListParams } from './devices.api.ts';
import type { NotificationStateFilter } from './messages.api.ts';
import type { TaskListParams } from './tasks.api.ts';
import type { UserListParams } from './users.api.ts';
import type { VersionListParams } from './versions.api.ts';

/** Every TanStack Query key in one place, so invalidation matches what was cached. */
export const queryKeys = {
  loginOptions: ['login-options'] as const,
  me: ['me'] as const,
  apps: ['apps'] as const,
  appList: (filter: AppListFilter) => ['apps', filter] as const,
  appDetails: ['app-detail'] as const,
  appDetail: (appId: number) => ['app-detail', appId] as const,
  editableApps: ['apps', 'editable'] as const,
  installAccess: (appId: number) => ['install-access', appId] as const,
  versions: ['versions'] as const,
  versionList: (params: VersionListParams) => ['versions', params] as const,
  versionChanges: (versionId: number, base: 'previous' | 'last_install' = 'previous') =>
    ['versions', 'changes', versionId, base] as const,
  installStats: (appId: number) => ['versions', 'install-stats', appId] as const,
  versionHolders: (versionId: number) => ['versions', 'holders', versionId] as const,
  notifications: ['notifications'] as const,
  notificationList: (state: NotificationStateFilter, current: number) => ['notifications', state, current] as const,
  users: ['users'] as const,
  userList: (params: UserListParams) => ['users', params] as const,
  userBriefs: ['users', 'briefs'] as const,
  userApps: ['user-apps'] as const,
  userAppsOf: (userId: number) => ['user-apps', userId] as const,
  roles: ['roles'] as const,
  roleList: (pageNo: number, pageSize: number) => ['roles', pageNo, pageSize] as const,
  categories: ['categories'] as const,
  systemSettings: ['system-settings'] as const,
  repoHosts: ['repo-hosts'] as const,
  apiTokens: ['api-tokens'] as const,
  apiTokenList: (params: ApiTokenListParams) => ['api-tokens', params] as const,
  publicUrlCheck: ['public-url-check'] as const,
  jobSchedules: ['job-schedules'] as const,
  jobQueue: ['job-queue'] as const,
  certificates: ['certificates'] as const,
  harmonyCertificates: ['harmony-certificates'] as const,
  devices: ['devices'] as const,
  deviceList: (params: DeviceListParams) => ['devices', params] as const,
  taskView: (appId: number) => ['task-view', appId] as const,
  tasks: (appId: number) => ['tasks', appId] as const,
  feedbackSettings: (appId: number) => ['feedback-settings', appId] as const,
  taskList: (params: TaskListParams) => ['tasks', params.appId, params] as const,
  taskFields: (appId: number) => ['task-fields', appId] as const,
  assignableUsers: ['assignable-users'] as const,
  taskComments: (taskGuid: string) => ['task-comments', taskGuid] as const,
  taskHistories: ['task-history'] as const,
  taskHistory: (taskGuid: string) => ['task-history', taskGuid] as const,
};
