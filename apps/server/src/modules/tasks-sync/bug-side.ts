import { randomUUID } from 'node:crypto';
import { BUG_DONE_STATUS, type FieldGroupName } from '@release/contract';
import type { Clock } from '../../lib/clock.ts';
import {
  bitablePeople,
  bitableText,
  type BitableRecordRead,
  type LarkBitableClient,
} from '../../integrations/lark/lark-bitable.ts';
import type { TaskRecordRow } from '../tasks/tasks.repository.ts';
import { BUG_COLUMNS, labelOfValue, valueOfLabel } from './lark-fields.ts';
import type { LarkSide, SyncedColumns } from './sync-engine.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';
import { peopleSetText, taskColumns } from '../tasks/task-columns.ts';

/** Bugs ↔ records of the app's Bitable table, keyed by column name (lark-fields.ts). */
export function createBugSide(deps: {
  client: LarkBitableClient;
  sync: TasksSyncRepository;
  clock: Clock;
  appToken: string;
  tableId: string;
}) {
  const select = (group: FieldGroupName, value: unknown): string | null =>
    typeof value === 'string' && value ? valueOfLabel(group, value) : null;
  const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

  const side: LarkSide<BitableRecordRead> = {
    updatedAt: (remote) => Number(remote.last_modified_time ?? 0),

    async asColumns(remote, record) {
      const f = remote.fields;
      const openIds = bitablePeople(f[BUG_COLUMNS.assignees]);
      const users = await deps.sync.usersOfOpenIds(openIds);
      const local = taskColumns.assigneeIds.decode(record.assignee_ids);
      const linked = await deps.sync.openIdsOf(local);
      const assignees = [
        ...new Set([
          ...local.filter((id) => !linked.has(id)),
          ...openIds.map((o) => users.get(o)).filter((id): id is number => id !== undefined),
        ]),
      ].sort((a, b) => a - b);
      const bugStatus = select('bugStatus', f[BUG_COLUMNS.bugStatus]);
      const remark = bitableText(f[BUG_COLUMNS.bugRemark]);
      return {
        summary: bitableText(f[BUG_COLUMNS.summary]),
        description: bitableText(f[BUG_COLUMNS.description]),
        bug_status: bugStatus,
        bug_severity: select('bugSeverity', f[BUG_COLUMNS.bugSeverity]),
        bug_priority: select('bugPriority', f[BUG_COLUMNS.bugPriority]),
        bug_type: select('bugType', f[BUG_COLUMNS.bugType]),
        module_name: typeof f[BUG_COLUMNS.moduleName] === 'string' ? (f[BUG_COLUMNS.moduleName] as string) : null,
        assignee_ids:
          peopleSetText(local) === peopleSetText(assignees)
            ? record.assignee_ids
            : taskColumns.assigneeIds.encode(assignees),
        start_at: num(f[BUG_COLUMNS.startAt]),
        due: num(f[BUG_COLUMNS.due]),
        bug_remark: remark || (record.bug_remark === '' ? '' : null),
        completed_at: bugStatus === BUG_DONE_STATUS ? (record.completed_at ?? deps.clock.now()) : null,
      } satisfies Partial<SyncedColumns>;
    },

    async push(record, remote) {
      const openIds = [...(await deps.sync.openIdsOf(taskColumns.assigneeIds.decode(record.assignee_ids))).values()];
      // People in the cell without a local account stay.
      const kept = remote
        ? await Promise.all([deps.sync.usersOfOpenIds(bitablePeople(remote.fields[BUG_COLUMNS.assignees]))]).then(
            ([known]) => bitablePeople(remote.fields[BUG_COLUMNS.assignees]).filter((o) => !known.has(o)),
          )
        : [];
      const people = [...new Set([...openIds, ...kept])];
      const label = (group: FieldGroupName, value: string | null) => (value ? labelOfValue(group, value) : null);
      const fields: Record<string, unknown> = {
        [BUG_COLUMNS.summary]: record.summary,
        [BUG_COLUMNS.description]: record.description || null,
        [BUG_COLUMNS.bugStatus]: label('bugStatus', record.bug_status),
        [BUG_COLUMNS.bugSeverity]: label('bugSeverity', record.bug_severity),
        [BUG_COLUMNS.bugPriority]: label('bugPriority', record.bug_priority),
        [BUG_COLUMNS.bugType]: label('bugType', record.bug_type),
        [BUG_COLUMNS.moduleName]: record.module_name || null,
        [BUG_COLUMNS.assignees]: people.length ? people.map((id) => ({ id })) : null,
        [BUG_COLUMNS.startAt]: record.start_at,
        [BUG_COLUMNS.due]: record.due,
        [BUG_COLUMNS.bugRemark]: record.bug_remark || null,
        [BUG_COLUMNS.localId]: record.guid,
      };
      if (remote === null) {
        const created = await deps.client.createRecord(
          deps.appToken,
          deps.tableId,
          Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null)),
          record.guid,
        );
        const read = await deps.client.getRecord(deps.appToken, deps.tableId, created.record_id);
        return { link: { lark_record_id: created.record_id }, updatedAt: side.updatedAt(read) };
      }
      await deps.client.updateRecord(deps.appToken, deps.tableId, remote.record_id, fields);
      const read = await deps.client.getRecord(deps.appToken, deps.tableId, remote.record_id);
      return { link: { lark_record_id: remote.record_id }, updatedAt: side.updatedAt(read) };
    },
  };

  return {
    side,
    /** Which local record a Bitable record belongs to: its `本地ID` (our guid), else none. */
    localIdOf: (remote: BitableRecordRead): string | null => bitableText(remote.fields[BUG_COLUMNS.localId]) || null,
    async importColumns(remote: BitableRecordRead): Promise<SyncedColumns> {
      const blank = { assignee_ids: '[]', completed_at: null, bug_remark: null } as unknown as TaskRecordRow;
      const columns = await side.asColumns(remote, blank);
      return { status: null, priority: null, ...columns, bug_status: columns.bug_status ?? 'new' } as SyncedColumns;
    },
    newGuid: () => randomUUID(),
  };
}
export type BugSide = ReturnType<typeof createBugSide>;
