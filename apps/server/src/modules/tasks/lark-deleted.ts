import type { Updateable } from 'kysely';
import type { RecordType } from '@release/contract';
import type { TaskRecordsTable } from '../../db/schema.ts';
import type { NewTaskHistory } from './tasks.repository.ts';

/** What the history says when a record's Lark item turns out deleted. */
export const DELETED_IN_LARK = {
  task: '已在飞书任务清单中删除',
  bug: '已在飞书多维表格中删除',
  keptEdit: '保留本地未同步的修改，不再与飞书同步',
} as const;

/**
 * A record deleted in Lark that has a local edit Lark never got: the edit is kept here, the record is unlinked
 * (never re-created in Lark, which would undo the deletion there) and marked 'kept', and a conflict row says so.
 */
export function keptHere(
  recordType: RecordType,
  now: number,
): { changes: Updateable<TaskRecordsTable>; history: NewTaskHistory } {
  return {
    changes: {
      lark_deleted: 'kept',
      lark_guid: null,
      lark_record_id: null,
      lark_synced_version: null,
      lark_updated_at: null,
    },
    history: {
      actor_id: null,
      source: 'lark',
      field: 'conflict',
      old_value: DELETED_IN_LARK[recordType],
      new_value: DELETED_IN_LARK.keptEdit,
      create_time: now,
      comment_id: null,
    },
  };
}
