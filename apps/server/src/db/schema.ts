import type { NativePackageType } from '@release/contract/package-kinds';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Table types. Times are UTC epoch milliseconds; booleans are 0/1; JSON columns are text. */
import type {
  AppleAccountBindingsTable,
  AppleAccountsTable,
  AppleBundleIdsTable,
  AppleCertificatesTable,
  AppleDevicesTable,
  CertificateProfilesTable,
  CertificatesTable,
  DeviceEnrollmentsTable,
  HarmonyCertificatesTable,
  DevicesTable,
  ResignJobsTable,
} from './schema/signing.ts';
import type {
  DeliveriesTable,
  JobSchedulesTable,
  JobScheduleRunsTable,
  JobsTable,
  LarkDocFollowsTable,
  LarkEventsTable,
  LarkImageKeysTable,
  SignInStatesTable,
  UserIdentitiesTable,
} from './schema/sign-in-messaging.ts';
import type { AppTaskSettingsTable, TaskCommentsTable, TaskHistoryTable, TaskRecordsTable } from './schema/tasks.ts';

export type * from './schema/signing.ts';
export type * from './schema/sign-in-messaging.ts';
export type * from './schema/tasks.ts';
export interface RolesTable {
  id: Generated<number>;
  role_name: string;
  role_level: number;
  builtin: number;
  create_time: number;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role_id: number;
  phone: string | null;
  private_url: string | null;
  create_time: number;
  update_time: number;
}

export interface SessionsTable {
  token_hash: string;
  user_id: number;
  create_time: number;
  expire_time: number;
  ip: string | null;
  user_agent: string | null;
}

/** Guesses per (scope, subject, address) in the window that began at window_start (modules/auth/attempt-limiter.ts). */
export interface AttemptCountersTable {
  scope: string;
  subject: string;
  ip: string;
  window_start: number;
  attempts: number;
}

export interface PhoneCodesTable {
  id: Generated<number>;
  user_id: number;
  scene: string;
  code_hash: string;
  attempts: number;
  expire_time: number;
  used_time: number | null;
  create_time: number;
}

export interface SettingsTable {
  key: string;
  value: string;
  update_time: number;
}

export interface CategoriesTable {
  id: Generated<number>;
  category_name: string;
  create_time: number;
}

export interface AppsTable {
  id: Generated<number>;
  app_name: string;
  app_type: string;
  app_icon: string | null;
  category_id: number | null;
  path: string;
  public_path: string;
  /** 1: /package/<public_path> opens the install page without the password (migration 025). */
  public_install: Generated<number>;
  password: string;
  description: string;
  /** JSON {"ios":[…],"android":[…],"mac":[…]}: the ids packages must carry (contract bundle-ids.ts). */
  bundle_ids: Generated<string>;
  support_url: string | null;
  dev_wecom_url: string | null;
  prod_wecom_url: string | null;
  /** The key this app's packages carry their source commit under (migration 063); null: the defaults. */
  source_commit_key: string | null;
  create_by: number | null;
  create_time: number;
  update_time: number;
}

export interface AppUsersTable {
  app_id: number;
  user_id: number;
  permit: 'edit' | 'view';
}

export interface AppCollectsTable {
  app_id: number;
  user_id: number;
  collect_type: 'collect' | 'subscribe';
  create_time: number;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  app_id: number;
  state: 'NOT_READ' | 'READ' | 'IGNORE';
  message_info: string;
  create_time: number;
}

export interface UploadSessionsTable {
  id: string;
  user_id: number;
  file_key: string;
  file_name: string;
  file_size: number | null;
  part_size: number | null;
  store_upload_id: string | null;
  /** issued → uploading → completed → registered; or aborted. */
  state: 'issued' | 'uploading' | 'completed' | 'registered' | 'aborted';
  purpose: 'package' | 'attachment' | 'media';
  create_time: number;
  update_time: number;
}

export interface AppVersionsTable {
  id: Generated<number>;
  app_id: number;
  index_no: number;
  native_package_type: NativePackageType;
  file_key: string;
  file_name: string;
  app_size: number;
  app_version: string | null;
  build: string | null;
  bundle_id: string | null;
  display_name: string | null;
  icon_key: string | null;
  description: string;
  attach_files: string;
  metadata: string;
  warnings: string;
  expire_date: number | null;
  chat_env: string | null;
  upload_by: number | null;
  create_time: number;
  update_time: number;
  /** Set when the version was removed (migration 030): the row stays so items that named it can say 已删除. */
  removed_time: Generated<number | null>;
  removed_by: Generated<number | null>;
  /** 1: 保留 — retention never removes it. */
  pinned: Generated<number>;
}

/** An app's retention rule (migration 031); apps without one follow the default for new apps. */
export interface AppRetentionRulesTable {
  app_id: number;
  enabled: number;
  keep_last: number;
  keep_days: number;
  /** MB, 0: no quota (migration 055). */
  quota_mb: Generated<number>;
  update_by: number | null;
  update_time: number;
}

/** An app's package-change thresholds (migration 062, issue 19); apps without a row watch nothing. */
export interface AppPackageThresholdsTable {
  app_id: number;
  size_percent: number | null;
  size_mb: number | null;
  dangerous_permission: number;
  certificate: number;
  min_os_raised: number;
  update_by: number | null;
  update_time: number;
}

/** Icons, screenshots and videos stored by the server (media.service.ts); housekeeping deletes the unreferenced ones. */
/** The source state a version was built from, per repository workflow (migration 050, issue 19). */
export interface VersionSourcesTable {
  app_version_id: number;
  workflow_id: number;
  /** The full commit id once resolved; as given (an abbreviation, an svn revision) while pending. */
  commit_id: string;
  branch: string | null;
  origin: 'upload' | 'package' | 'tag' | 'branch';
  /** 1 once the commit was found in the workflow's mirror. */
  resolved: number;
  create_time: number;
  update_time: number;
}

export interface MediaFilesTable {
  key: string;
  size: number;
  user_id: number | null;
  create_time: number;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 (hex) of the token; the token itself is shown once and never stored. */
  token_hash: string;
  /** The token's first 8 characters, to tell tokens apart in lists. */
  prefix: string;
  create_time: number;
  last_used_time: number | null;
  expire_time: number | null;
  revoked_time: number | null;
}

export interface WorkflowsTable {
  id: Generated<number>;
  app_id: number;
  tab_name: string;
  content_type: 'default' | 'package' | 'custom';
  manage_type: string | null;
  repo_type: string | null;
  repo_path: string | null;
  default_branch: string | null;
  committers: string;
  robot_url: string | null;
  auto_push: number;
  package_type: string | null;
  order_no: number;
  enterprise_name: string | null;
  webhook_token: string;
  webhook_secret: string;
  last_sync_time: number | null;
  last_sync_error: string | null;
  /** The Lark bot's signing secret, sealed with the server secret. */
  robot_secret: Generated<string | null>;
  /** The highest commit_logs.id autoPush has handed to a job. */
  auto_push_cursor: Generated<number | null>;
  create_by: number | null;
  create_time: number;
  update_time: number;
}

export interface CommitLogsTable {
  id: Generated<number>;
  app_id: number;
  workflow_id: number;
  commit_id: string;
  commit_time: number;
  branch: string | null;
  tag_name: string | null;
  tag_summary: string;
  commit_message: string;
  description: string;
  file_urls: string;
  remark: string;
  author_email: string | null;
  source_url: string | null;
  app_version_id: number | null;
  metadata: string | null;
  is_filtered: number;
  create_time: number;
  update_time: number;
}

/** Items per workflow, shown/hidden and UTC day or hour (slot = commit_time div the unit), kept by triggers (065). */
export interface CommitLogCountsTable {
  workflow_id: number;
  is_filtered: number;
  slot: number;
  n: number;
}

export interface CommitLogVersionsTable {
  commit_log_id: number;
  app_version_id: number;
}

export interface WebhookDeliveriesTable {
  workflow_id: number;
  delivery_key: string;
  create_time: number;
}

/** A download or OTA install of a build, once per device per UTC day (migration 040). */
export interface InstallEventsTable {
  id: Generated<number>;
  app_id: number;
  version_id: number;
  kind: 'download' | 'install';
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** `u<user id>` for a signed-in user, else `d<the page's device id>` or `a<digest of address and User-Agent>`. */
  device_key: string;
  user_id: number | null;
  device_family: string;
  os_version: string | null;
  create_time: number;
}

export interface Database {
  roles: RolesTable;
  users: UsersTable;
  sessions: SessionsTable;
  attempt_counters: AttemptCountersTable;
  phone_codes: PhoneCodesTable;
  settings: SettingsTable;
  categories: CategoriesTable;
  apps: AppsTable;
  app_users: AppUsersTable;
  app_collects: AppCollectsTable;
  notifications: NotificationsTable;
  upload_sessions: UploadSessionsTable;
  app_versions: AppVersionsTable;
  media_files: MediaFilesTable;
  app_retention_rules: AppRetentionRulesTable;
  app_package_thresholds: AppPackageThresholdsTable;
  version_sources: VersionSourcesTable;
  apple_accounts: AppleAccountsTable;
  apple_account_bindings: AppleAccountBindingsTable;
  apple_devices: AppleDevicesTable;
  apple_certificates: AppleCertificatesTable;
  harmony_certificates: HarmonyCertificatesTable;
  apple_bundle_ids: AppleBundleIdsTable;
  workflows: WorkflowsTable;
  commit_logs: CommitLogsTable;
  commit_log_versions: CommitLogVersionsTable;
  commit_log_days: CommitLogCountsTable;
  commit_log_hours: CommitLogCountsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  api_tokens: ApiTokensTable;
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
  job_schedule_runs: JobScheduleRunsTable;
  deliveries: DeliveriesTable;
  user_identities: UserIdentitiesTable;
  sign_in_states: SignInStatesTable;
  certificates: CertificatesTable;
  certificate_profiles: CertificateProfilesTable;
  devices: DevicesTable;
  device_enrollments: DeviceEnrollmentsTable;
  resign_jobs: ResignJobsTable;
  lark_events: LarkEventsTable;
  lark_doc_follows: LarkDocFollowsTable;
  lark_image_keys: LarkImageKeysTable;
  app_task_settings: AppTaskSettingsTable;
  install_events: InstallEventsTable;
  task_records: TaskRecordsTable;
  task_comments: TaskCommentsTable;
  task_history: TaskHistoryTable;
}

export type UserRecord = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RoleRecord = Selectable<RolesTable>;
export type AppRecord = Selectable<AppsTable>;
export type { Insertable };
