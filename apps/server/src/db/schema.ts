import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Table types. Times are UTC epoch milliseconds; booleans are 0/1; JSON columns are text. */
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

export interface LoginFailuresTable {
  id: Generated<number>;
  username: string;
  ip: string;
  create_time: number;
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
  password: string;
  description: string;
  bundle_id: string | null;
  support_url: string | null;
  dev_wecom_url: string | null;
  prod_wecom_url: string | null;
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
  native_package_type: 'ios' | 'android' | 'web' | 'mac';
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

export interface CommitLogVersionsTable {
  commit_log_id: number;
  app_version_id: number;
}

export interface WebhookDeliveriesTable {
  workflow_id: number;
  delivery_key: string;
  create_time: number;
}

export interface UserIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider: 'lark' | 'wecom';
  subject: string;
  union_id: string | null;
  display_name: string;
  avatar_url: string | null;
  create_time: number;
  last_login_time: number | null;
}

export interface SignInStatesTable {
  state_hash: string;
  purpose: string;
  binding_hash: string | null;
  /** JSON: what the attempt carries (CLI port, return path, the QR code's outcome). */
  payload: string;
  status: 'pending' | 'done' | 'denied' | 'used';
  user_id: number | null;
  create_time: number;
  expire_time: number;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON, checked by the job definition's schema when it runs. */
  payload: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  attempts: Generated<number>;
  max_attempts: number;
  run_at: number;
  lease_owner: string | null;
  lease_expire_time: number | null;
  last_error: string | null;
  dedupe_key: string | null;
  create_time: number;
  update_time: number;
  finish_time: number | null;
}

export interface DeliveriesTable {
  id: Generated<number>;
  app_id: number;
  workflow_id: number | null;
  receiver_kind: 'lark-bot' | 'lark-im' | 'wecom-robot';
  target: string;
  title: string;
  status: 'pending' | 'sent' | 'failed';
  receiver_code: number | null;
  receiver_message: string | null;
  attempts: Generated<number>;
  job_id: number | null;
  sending_since: number | null;
  requested_by: number | null;
  create_time: number;
  sent_time: number | null;
}

/** An App Store Connect API key (modules/apple-accounts); the .p8 is sealed with the server secret. */
export interface AppleAccountsTable {
  id: Generated<number>;
  name: string;
  issuer_id: string;
  key_id: string;
  private_key_sealed: string;
  /** The team, learnt from the account's bundle ids or certificates at sync. */
  team_id: string | null;
  remark: string;
  /** JSON AppleSyncResult of the last sync. */
  last_sync: string | null;
  last_sync_time: number | null;
  create_by: number | null;
  create_time: number;
  update_time: number;
}

/** What an account is bound to: apps and uploaded certificates (one account per target). */
export interface AppleAccountBindingsTable {
  account_id: number;
  target_type: 'app' | 'certificate';
  target_id: number;
}

/** The account's devices as Apple listed them at the last sync (or as registered since). */
export interface AppleDevicesTable {
  id: Generated<number>;
  account_id: number;
  apple_id: string;
  udid: string;
  name: string;
  platform: string;
  device_class: string;
  status: string;
  model: string | null;
}

export interface AppleCertificatesTable {
  id: Generated<number>;
  account_id: number;
  apple_id: string;
  name: string;
  certificate_type: string;
  display_name: string;
  serial_number: string;
  expire_time: number;
  /** Upper-case hex SHA-1 of the DER, to match an uploaded certificate. */
  sha1: string;
}

export interface AppleBundleIdsTable {
  id: Generated<number>;
  account_id: number;
  apple_id: string;
  identifier: string;
  name: string;
  platform: string;
  seed_id: string | null;
}

export interface CertificatesTable {
  id: Generated<number>;
  group_id: string;
  main_bundle_id: string;
  common_name: string;
  subject: string;
  team_id: string | null;
  team_name: string | null;
  serial_number: string;
  /** Upper-case hex SHA-1 of the certificate DER (Keychain's fingerprint); unique. */
  sha1: string;
  valid_from: number;
  valid_to: number;
  /** Base64 DER of the leaf certificate. */
  certificate_der: string;
  /** JSON list of base64 DER certificates that came with it in the .p12. */
  chain_der: string;
  /** PKCS#8 PEM of the private key, sealed with the server secret. */
  private_key_sealed: string;
  /** The .p12 password, sealed with the server secret. */
  password_sealed: string;
  create_by: number | null;
  create_time: number;
}

export interface CertificateProfilesTable {
  id: Generated<number>;
  certificate_id: number;
  uuid: string;
  name: string;
  profile_type: string;
  team_id: string | null;
  app_id: string;
  bundle_id: string;
  /** JSON list of UDIDs. */
  devices: string;
  provisions_all_devices: number;
  lists_certificate: number;
  expire_time: number;
  /** Base64 of the profile file as uploaded. */
  content: string;
}

export interface DevicesTable {
  id: Generated<number>;
  udid: string;
  device_name: string;
  platform: 'ios' | 'mac';
  model: string | null;
  remark: Generated<string>;
  user_id: number | null;
  create_by: number | null;
  create_time: number;
  update_time: number;
}

/** A self-service device registration (Profile Service); see modules/device-enroll. */
export interface DeviceEnrollmentsTable {
  id: Generated<number>;
  challenge_hash: string;
  user_id: number | null;
  app_id: number | null;
  version_id: number | null;
  create_time: number;
  expire_time: number;
  used_time: number | null;
  udid: string | null;
  product: string | null;
  os_version: string | null;
  serial: string | null;
  outcome: 'registered' | 'known' | null;
}

/** One `/api/zsign` re-signing; the job `zsign.resign` runs it (modules/zsign). */
export interface ResignJobsTable {
  id: Generated<number>;
  app_id: number;
  source_version_id: number;
  certificate_id: number;
  certificate_name: string;
  user_id: number;
  status: 'pending' | 'running' | 'done' | 'failed';
  /** 0–100. */
  progress: number;
  stage: 'queued' | 'read' | 'sign' | 'write' | 'verify' | 'store' | 'done';
  error: string | null;
  result_version_id: number | null;
  create_time: number;
  update_time: number;
}

export interface LarkEventsTable {
  event_id: string;
  event_type: string;
  items_created: number;
  create_time: number;
}

/** One image uploaded to Lark (im/v1/images) per Lark app and content, for card icons. */
export interface LarkImageKeysTable {
  lark_app_id: string;
  content_sha256: string;
  image_key: string;
  size: number;
  create_time: number;
}

export interface LarkDocFollowsTable {
  id: Generated<number>;
  workflow_id: number;
  /** What the editor entered: a document/wiki/folder URL or a token. */
  source: string;
  /** The drive token events carry (a wiki node's obj_token). */
  obj_token: string;
  obj_type: string;
  node_token: string | null;
  title: string;
  space_name: string | null;
  url: string | null;
  /** The document's text when last seen: the "before" of the next edit. */
  content: string | null;
  subscribed: number;
  last_error: string | null;
  create_time: number;
  update_time: number;
}

export interface AppTaskSettingsTable {
  app_id: number;
  task_view_enabled: number;
  lark_task_list_guid: string | null;
  lark_task_list_url: string | null;
  lark_app_token: string | null;
  lark_table_id: string | null;
  lark_table_url: string | null;
  update_time: number;
}

export interface TaskRecordsTable {
  id: Generated<number>;
  guid: string;
  app_id: number;
  record_type: 'task' | 'bug';
  summary: string;
  description: string;
  /** JSON list of user ids. */
  assignee_ids: string;
  creator_id: number | null;
  start_at: number | null;
  due: number | null;
  completed_at: number | null;
  priority: string | null;
  status: string | null;
  module_name: string | null;
  bug_status: string | null;
  bug_type: string | null;
  bug_severity: string | null;
  bug_priority: string | null;
  bug_remark: string | null;
  /** JSON list of { s3Key, fileName, fileToken }. */
  attach_files: string;
  comment_count: Generated<number>;
  record_version: Generated<number>;
  client_token: string | null;
  lark_guid: string | null;
  lark_record_id: string | null;
  lark_synced_version: number | null;
  lark_updated_at: number | null;
  updated_by: number | null;
  create_time: number;
  update_time: number;
}

export interface TaskCommentsTable {
  id: Generated<number>;
  record_id: number;
  content: string;
  creator_id: number | null;
  comment_version: Generated<number>;
  lark_comment_id: string | null;
  lark_synced_version: number | null;
  create_time: number;
  update_time: number;
  deleted_time: number | null;
}

export interface TaskHistoryTable {
  id: Generated<number>;
  record_id: number;
  comment_id: number | null;
  record_version: number;
  actor_id: number | null;
  source: 'local' | 'lark';
  field: string;
  old_value: string | null;
  new_value: string | null;
  create_time: number;
}

export interface Database {
  roles: RolesTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  phone_codes: PhoneCodesTable;
  settings: SettingsTable;
  categories: CategoriesTable;
  apps: AppsTable;
  app_users: AppUsersTable;
  app_collects: AppCollectsTable;
  notifications: NotificationsTable;
  upload_sessions: UploadSessionsTable;
  app_versions: AppVersionsTable;
  apple_accounts: AppleAccountsTable;
  apple_account_bindings: AppleAccountBindingsTable;
  apple_devices: AppleDevicesTable;
  apple_certificates: AppleCertificatesTable;
  apple_bundle_ids: AppleBundleIdsTable;
  workflows: WorkflowsTable;
  commit_logs: CommitLogsTable;
  commit_log_versions: CommitLogVersionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  api_tokens: ApiTokensTable;
  jobs: JobsTable;
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
