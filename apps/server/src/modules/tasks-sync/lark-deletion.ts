import type { Updateable } from 'kysely';
import type { TaskRecordsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { NewTaskHistory, TaskRecordRow, TasksRepository } from '../tasks/tasks.repository.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

export type DeletionOutcome = 'removed' | 'kept' | 'none';

/** What the history says when a record's Lark item turns out deleted. */
export const DELETED_IN_LARK = { task: '已在飞书任务清单中删除', bug: '已在飞书多维表格中删除', keptEdit: '保留本地未同步的修改，不再与飞书同步' } as const;

/**
 * A linked record whose Lark item is gone (not listed any more and Lark answers not found). Without a local edit
 * pending it is marked 'removed': it leaves the list, its row, history and comments stay, nothing is pushed again.
 * With a local edit Lark never got, the edit is not dropped: the record stays visible, unlinked and marked 'kept'
 * (never re-created in Lark, which would undo the deletion there), and a conflict row in its history says so.
 * Compare-and-set on record_version: a local edit landing meanwhile is seen on the next try.
 */
export function createLarkDeletion(deps: { tasks: TasksRepository; sync: TasksSyncRepository; clock: Clock }) {
  return async function goneInLark(record: TaskRecordRow): Promise<DeletionOutcome> {
    let current: TaskRecordRow | undefined = record;
    for (let attempt = 0; attempt < 5 && current; attempt += 1) {
      if (current.lark_deleted || !(current.lark_guid || current.lark_record_id)) return 'none';
      const now = deps.clock.now();
      const version = Number(current.record_version);
      const pending = version > Number(current.lark_synced_version ?? 0);
      const where = DELETED_IN_LARK[current.record_type];
      const row = (field: string, oldValue: string | null, newValue: string): NewTaskHistory => ({ actor_id: null, source: 'lark', field, old_value: oldValue, new_value: newValue, create_time: now, comment_id: null });
      const changes: Updateable<TaskRecordsTable> = pending
        ? { lark_deleted: 'kept', lark_guid: null, lark_record_id: null, lark_synced_version: null, lark_updated_at: null }
        : { lark_deleted: 'removed' };
      const history = pending ? [row('conflict', where, DELETED_IN_LARK.keptEdit)] : [row('deletedInLark', null, where)];
      if (await deps.tasks.update(Number(current.id), version, { ...changes, update_time: now, updated_by: null }, history)) return pending ? 'kept' : 'removed';
      current = await deps.sync.findById(Number(record.id));
    }
    return 'none';
  };
}
export type GoneInLark = ReturnType<typeof createLarkDeletion>;
