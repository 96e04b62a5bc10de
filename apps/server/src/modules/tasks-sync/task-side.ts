import { TASK_DONE_STATUS } from '@release/contract';
import type { Clock } from '../../lib/clock.ts';
import {
  larkTime,
  type LarkCustomField,
  type LarkTask,
  type LarkTaskClient,
  type LarkTaskFields,
} from '../../integrations/lark/lark-task.ts';
import type { TaskRecordRow } from '../tasks/tasks.repository.ts';
import { cut, labelOfValue, TASK_CUSTOM_FIELDS, valueOfLabel } from './lark-fields.ts';
import type { LarkSide, SyncedColumns } from './sync-engine.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';
import { peopleSetText, taskColumns } from '../tasks/task-columns.ts';

/** Tasks ↔ Lark Task v2 items of the app's task list (status and priority as the list's select custom fields). */
export function createTaskSide(deps: {
  client: LarkTaskClient;
  sync: TasksSyncRepository;
  clock: Clock;
  tasklistGuid: string;
}) {
  let fields: LarkCustomField[] | null = null;
  async function customFields(): Promise<LarkCustomField[]> {
    fields ??= await deps.client.listCustomFields(deps.tasklistGuid);
    return fields;
  }
  const fieldNamed = async (name: string) => (await customFields()).find((f) => f.name === name);

  async function assigneesOf(remote: LarkTask): Promise<string[]> {
    return remote.members.filter((m) => m.role === 'assignee' && m.type === 'user').map((m) => m.id);
  }

  const side: LarkSide<LarkTask> = {
    updatedAt: (remote) => Number(remote.updated_at),

    async asColumns(remote, record) {
      const [statusField, priorityField] = [
        await fieldNamed(TASK_CUSTOM_FIELDS.status),
        await fieldNamed(TASK_CUSTOM_FIELDS.priority),
      ];
      const optionName = (field: LarkCustomField | undefined) => {
        const guid = remote.custom_fields.find((v) => v.guid === field?.guid)?.single_select_value;
        return field?.options.find((o) => o.guid === guid)?.name;
      };
      const done = remote.completed_at !== '0';
      const statusLabel = optionName(statusField);
      let status = statusLabel ? valueOfLabel('status', statusLabel) : record.status;
      if (done) status = TASK_DONE_STATUS;
      else if (status === TASK_DONE_STATUS) status = 'in_progress';
      const priorityLabel = optionName(priorityField);
      // People without a local account stay in Lark; local people without Lark stay here.
      const openIds = await assigneesOf(remote);
      const users = await deps.sync.usersOfOpenIds(openIds);
      const local = taskColumns.assigneeIds.decode(record.assignee_ids);
      const linked = await deps.sync.openIdsOf(local);
      const assignees = [
        ...local.filter((id) => !linked.has(id)),
        ...openIds.map((o) => users.get(o)).filter((id): id is number => id !== undefined),
      ];
      const columns: Partial<SyncedColumns> = {
        summary: remote.summary,
        description: remote.description,
        start_at: remote.start ? Number(remote.start.timestamp) : null,
        due: remote.due ? Number(remote.due.timestamp) : null,
        completed_at: done ? Number(remote.completed_at) : null,
        status,
        priority: priorityLabel ? valueOfLabel('priority', priorityLabel) : record.priority,
        assignee_ids: peopleSetText(assignees),
      };
      // The same people in another order is no change.
      if (peopleSetText(local) === columns.assignee_ids) columns.assignee_ids = record.assignee_ids;
      return columns;
    },

    async push(record, remote) {
      const customs: NonNullable<LarkTaskFields['custom_fields']> = [];
      for (const [name, group, value] of [
        [TASK_CUSTOM_FIELDS.status, 'status', record.status],
        [TASK_CUSTOM_FIELDS.priority, 'priority', record.priority],
      ] as const) {
        const field = await fieldNamed(name);
        const option = value ? field?.options.find((o) => o.name === labelOfValue(group, value)) : undefined;
        if (field && option) customs.push({ guid: field.guid, single_select_value: option.guid });
      }
      const localDone = record.completed_at !== null;
      const openIds = [...(await deps.sync.openIdsOf(taskColumns.assigneeIds.decode(record.assignee_ids))).values()];
      const fieldsOut: LarkTaskFields = {
        summary: cut(record.summary) || '-',
        description: cut(record.description),
        start: larkTime(record.start_at),
        due: larkTime(record.due),
        custom_fields: customs,
      };
      if (remote === null) {
        const created = await deps.client.createTask({
          ...fieldsOut,
          ...(localDone ? { completed_at: String(record.completed_at) } : {}),
          tasklistGuid: deps.tasklistGuid,
          assignees: openIds,
          clientToken: record.guid,
        });
        return { link: { lark_guid: created.guid }, updatedAt: Number(created.updated_at) };
      }
      // Completing a completed task is refused: send completed_at only when it changes.
      if (localDone !== (remote.completed_at !== '0'))
        fieldsOut.completed_at = localDone ? String(record.completed_at) : '0';
      let after = await deps.client.patchTask(remote.guid, fieldsOut);
      const theirs = await assigneesOf(remote);
      const known = await deps.sync.usersOfOpenIds(theirs);
      const add = openIds.filter((o) => !theirs.includes(o));
      const remove = theirs.filter((o) => known.has(o) && !openIds.includes(o));
      if (add.length) after = await deps.client.addAssignees(remote.guid, add);
      if (remove.length) after = await deps.client.removeAssignees(remote.guid, remove);
      return { link: { lark_guid: remote.guid }, updatedAt: Number(after.updated_at) };
    },
  };

  return {
    side,
    /** A task someone created in Lark, as a new local record. */
    async importColumns(remote: LarkTask): Promise<SyncedColumns> {
      const blank = { status: 'not_started', priority: 'high', assignee_ids: '[]' } as TaskRecordRow;
      const columns = await side.asColumns(remote, blank);
      return {
        module_name: null,
        bug_status: null,
        bug_type: null,
        bug_severity: null,
        bug_priority: null,
        bug_remark: null,
        ...columns,
      } as SyncedColumns;
    },
    async creatorOf(remote: LarkTask & { creator?: { id: string; type: string } }): Promise<number | null> {
      const openId = remote.creator?.type === 'user' ? remote.creator.id : null;
      return openId ? ((await deps.sync.usersOfOpenIds([openId])).get(openId) ?? null) : null;
    },
  };
}
export type TaskSide = ReturnType<typeof createTaskSide>;
