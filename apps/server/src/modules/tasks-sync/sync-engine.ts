import type { Updateable } from 'kysely';
import type { TaskRecordsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { NewTaskHistory, TaskRecordRow } from '../tasks/tasks.repository.ts';
import type { TasksDirectory } from '../tasks/tasks-directory.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

/** The record columns a Lark task or Bitable record carries, as the tracker stores them. */
export type SyncedColumns = Pick<
  TaskRecordRow,
  | 'summary'
  | 'description'
  | 'assignee_ids'
  | 'start_at'
  | 'due'
  | 'completed_at'
  | 'priority'
  | 'status'
  | 'module_name'
  | 'bug_status'
  | 'bug_type'
  | 'bug_severity'
  | 'bug_priority'
  | 'bug_remark'
>;

const FIELD_NAMES: Record<keyof SyncedColumns, string> = {
  summary: 'summary',
  description: 'description',
  assignee_ids: 'assigneeIds',
  start_at: 'startAt',
  due: 'due',
  completed_at: 'completedAt',
  priority: 'priority',
  status: 'status',
  module_name: 'moduleName',
  bug_status: 'bugStatus',
  bug_type: 'bugType',
  bug_severity: 'bugSeverity',
  bug_priority: 'bugPriority',
  bug_remark: 'bugRemark',
};

/** One kind of Lark item (a Task v2 task or a Bitable record) seen from the sync. */
export interface LarkSide<R> {
  /** Lark's own modified time of the item (ms). */
  updatedAt(remote: R): number;
  /** The item as tracker columns (only those this kind carries). */
  asColumns(remote: R, record: TaskRecordRow): Promise<Partial<SyncedColumns>>;
  /** Writes the record to Lark (creating the item when `remote` is null); answers the link and Lark's new modified time. */
  push(
    record: TaskRecordRow,
    remote: R | null,
  ): Promise<{ link: { lark_guid?: string; lark_record_id?: string }; updatedAt: number }>;
}

export type SyncOutcome = 'none' | 'pushed' | 'pulled';

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function differences(
  record: TaskRecordRow,
  remote: Partial<SyncedColumns>,
): Array<[keyof SyncedColumns, string | null, string | null]> {
  const out: Array<[keyof SyncedColumns, string | null, string | null]> = [];
  for (const key of Object.keys(remote) as Array<keyof SyncedColumns>) {
    const local = text(record[key]);
    const theirs = text(remote[key]);
    if (local !== theirs) out.push([key, local, theirs]);
  }
  return out;
}

/**
 * One record against its Lark item, by recordVersion and Lark's modified time:
 * - only the local record changed since the last sync (record_version > lark_synced_version): pushed;
 * - only Lark's item changed (its modified time > lark_updated_at): its values come in as a new record version,
 *   each field in task_history with source lark;
 * - both changed: the newer side is kept and the older side's differing values are written to task_history
 *   (with a `conflict` row naming the side kept), so no edit disappears without a trace.
 */
export function createSyncEngine(deps: { tasks: TasksDirectory; sync: TasksSyncRepository; clock: Clock }) {
  async function pull(
    record: TaskRecordRow,
    theirs: Partial<SyncedColumns>,
    larkUpdatedAt: number,
    conflict: boolean,
  ): Promise<SyncOutcome> {
    const now = deps.clock.now();
    const diffs = differences(record, theirs);
    const history: NewTaskHistory[] = diffs.map(([key, oldValue, newValue]) => ({
      actor_id: null,
      source: 'lark',
      field: FIELD_NAMES[key],
      old_value: oldValue,
      new_value: newValue,
      create_time: now,
      comment_id: null,
    }));
    if (conflict)
      history.push({
        actor_id: null,
        source: 'lark',
        field: 'conflict',
        old_value: '本地修改（较旧）',
        new_value: '保留飞书中较新的修改',
        create_time: now,
        comment_id: null,
      });
    if (!diffs.length) {
      await deps.sync.markSynced(Number(record.id), Number(record.record_version), {}, larkUpdatedAt);
      return 'none';
    }
    const changes: Updateable<TaskRecordsTable> = { update_time: now, updated_by: null };
    for (const [key] of diffs) (changes as Record<string, unknown>)[key] = theirs[key] ?? null;
    const version = Number(record.record_version);
    // A local edit landed meanwhile: its own push job decides against Lark next.
    if (!(await deps.tasks.update(Number(record.id), version, changes, history))) return 'none';
    await deps.sync.markSynced(Number(record.id), version + 1, {}, larkUpdatedAt);
    return 'pulled';
  }

  return {
    async reconcile<R>(side: LarkSide<R>, record: TaskRecordRow, remote: R | null): Promise<SyncOutcome> {
      const version = Number(record.record_version);
      if (remote === null) {
        const created = await side.push(record, null);
        await deps.sync.markSynced(Number(record.id), version, created.link, created.updatedAt);
        return 'pushed';
      }
      const localChanged = version > Number(record.lark_synced_version ?? 0);
      const remoteAt = side.updatedAt(remote);
      const remoteChanged = remoteAt > Number(record.lark_updated_at ?? 0);
      if (!localChanged && !remoteChanged) return 'none';
      const theirs = await side.asColumns(remote, record);
      if (remoteChanged && (!localChanged || remoteAt > Number(record.update_time)))
        return pull(record, theirs, remoteAt, localChanged);
      if (remoteChanged) {
        const now = deps.clock.now();
        const lost = differences(record, theirs).map(
          ([key, local, lark]): NewTaskHistory => ({
            actor_id: null,
            source: 'lark',
            field: FIELD_NAMES[key],
            old_value: lark,
            new_value: local,
            create_time: now,
            comment_id: null,
          }),
        );
        await deps.sync.note(record, [
          ...lost,
          {
            actor_id: null,
            source: 'lark',
            field: 'conflict',
            old_value: '飞书中的修改（较旧）',
            new_value: '保留本地较新的修改',
            create_time: now,
            comment_id: null,
          },
        ]);
      }
      const pushed = await side.push(record, remote);
      await deps.sync.markSynced(Number(record.id), version, pushed.link, pushed.updatedAt);
      return 'pushed';
    },
  };
}
export type SyncEngine = ReturnType<typeof createSyncEngine>;
