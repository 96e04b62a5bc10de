import type { Generated } from 'kysely';

/** Tables of sign-in through Lark/WeCom, the job queue, pushes and Lark documents. Times are UTC epoch milliseconds; booleans are 0/1; JSON columns are text. */

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

/** A schedule of recurring work (jobs/scheduler.ts): taken by one process at a time under a lease. */
export interface JobSchedulesTable {
  name: string;
  interval_ms: number;
  enabled: number;
  next_run_at: number;
  claimed_by: string | null;
  lease_expire_time: number | null;
  last_run_at: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  update_time: number;
}

/** One run of a schedule (kept a week). */
export interface JobScheduleRunsTable {
  id: Generated<number>;
  name: string;
  owner: string;
  manual: number;
  start_time: number;
  finish_time: number | null;
  error: string | null;
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
