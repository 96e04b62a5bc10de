import type { Generated } from 'kysely';

/** Tables of the task and bug tracker and its Lark sync. Times are UTC epoch milliseconds; booleans are 0/1; JSON columns are text. */

export interface AppTaskSettingsTable {
  app_id: number;
  task_view_enabled: number;
  /** Testers may send feedback from the install page (1, the default) or not (0). */
  feedback_enabled: Generated<number>;
  /** JSON list of the user ids a feedback bug is assigned to. */
  feedback_assignee_ids: Generated<string>;
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
  /** Deleted in Lark: 'removed' (out of the list, kept for its history) or 'kept' (an unsynced local edit kept, unlinked). */
  lark_deleted: 'removed' | 'kept' | null;
  /** The build a tester's feedback was sent from (null for other records). */
  version_id: Generated<number | null>;
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
