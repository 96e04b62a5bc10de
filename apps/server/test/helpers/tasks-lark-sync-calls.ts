import { expect } from 'vitest';
import type { TaskHistoryEntry, TaskRecord } from '@release/contract';
import type { MessagingWorld } from './messaging-world.ts';

export const DAY = 24 * 60 * 60 * 1000;

/**
 * The calls of the tasks-and-bugs-in-step-with-Lark tests, on the world and the linked base their beforeAll sets up
 * (read through the getters, as they are set after the describe body runs). Tasks start at `start` and are due two
 * days later.
 */
export function tasksLarkSyncCalls(
  worldOf: () => MessagingWorld,
  baseOf: () => { appToken: string; tableId: string },
  start: number,
) {
  const call = <T>(path: string, body: unknown, token = worldOf().editor.token) =>
    worldOf().server.request<T>('POST', path, { token, body });
  const get = <T>(path: string, token = worldOf().editor.token) => worldOf().server.request<T>('GET', path, { token });
  const table = () =>
    worldOf()
      .lark.bitable.apps.get(baseOf().appToken)
      ?.tables.find((t) => t.table_id === baseOf().tableId);
  return {
    call,
    get,
    createTask: async (summary: string) => {
      const world = worldOf();
      const res = await call<TaskRecord>('/api/create_task', {
        appId: world.appId,
        recordType: 'task',
        summary,
        description: '说明',
        assigneeIds: [world.editor.userId],
        startAt: start,
        due: start + 2 * DAY,
      });
      expect(res.body.code).toBe(200);
      await world.runJobs();
      return (await get<TaskRecord>(`/api/task?taskGuid=${res.body.data.guid}`)).body.data;
    },
    update: (record: TaskRecord, change: Record<string, unknown>) =>
      call<TaskRecord>('/api/update_task', {
        appId: worldOf().appId,
        recordType: record.recordType,
        guid: record.guid,
        summary: record.summary,
        description: record.description,
        assigneeIds: record.assigneeIds,
        startAt: record.startAt,
        due: record.due,
        ...change,
      }),
    larkTask: (record: TaskRecord) => worldOf().lark.tasks.tasks.get(record.larkGuid ?? ''),
    history: async (record: TaskRecord) =>
      (await get<TaskHistoryEntry[]>(`/api/task_history?taskGuid=${record.guid}`)).body.data,
    table,
    cells: (recordId: string | null) => {
      const t = table();
      const record = t?.records.find((r) => r.record_id === recordId);
      return Object.fromEntries((t?.fields ?? []).map((f) => [f.field_name, record?.cells.get(f.field_id)]));
    },
  };
}
