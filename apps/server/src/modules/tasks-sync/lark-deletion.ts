import type { Updateable } from 'kysely';
import type { TaskRecordsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { DELETED_IN_LARK, keptHere } from '../tasks/lark-deleted.ts';
import type { TaskRecordRow } from '../tasks/tasks.repository.ts';
import type { TasksDirectory } from '../tasks/tasks-directory.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

export type DeletionOutcome = 'removed' | 'kept' | 'none';

/**
 * A linked record whose Lark item is gone (not listed any more and Lark answers not found). Without a local edit
 * pending it is marked 'removed': it leaves the list, its row, history and comments stay, nothing is pushed again.
 * With a local edit Lark never got, the edit is not dropped: the record stays visible, unlinked and marked 'kept'
 * (never re-created in Lark, which would undo the deletion there), and a conflict row in its history says so.
 * Compare-and-set on record_version: a local edit landing meanwhile is seen on the next try.
 */
export function createLarkDeletion(deps: { tasks: TasksDirectory; sync: TasksSyncRepository; clock: Clock }) {
  return async function goneInLark(record: TaskRecordRow): Promise<DeletionOutcome> {
    let current: TaskRecordRow | undefined = record;
    for (let attempt = 0; attempt < 5 && current; attempt += 1) {
      if (current.lark_deleted || !(current.lark_guid || current.lark_record_id)) return 'none';
      const now = deps.clock.now();
      const version = Number(current.record_version);
      const pending = version > Number(current.lark_synced_version ?? 0);
      const kept = keptHere(current.record_type, now);
      const changes: Updateable<TaskRecordsTable> = pending ? kept.changes : { lark_deleted: 'removed' };
      const history = [
        pending
          ? kept.history
          : {
              actor_id: null,
              source: 'lark' as const,
              field: 'deletedInLark',
              old_value: null,
              new_value: DELETED_IN_LARK[current.record_type],
              create_time: now,
              comment_id: null,
            },
      ];
      if (
        await deps.tasks.update(
          Number(current.id),
          version,
          { ...changes, update_time: now, updated_by: null },
          history,
        )
      )
        return pending ? 'kept' : 'removed';
      current = await deps.sync.findById(Number(record.id));
    }
    return 'none';
  };
}
export type GoneInLark = ReturnType<typeof createLarkDeletion>;
