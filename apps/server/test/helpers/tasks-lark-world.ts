import type { LarkSyncCounts, TaskHistoryEntry, TaskRecord } from '@release/contract';
import type { MessagingWorld } from './messaging-world.ts';

const DAY = 24 * 60 * 60 * 1000;

/** An app of the messaging world linked to a new Lark task list and Bitable, with the calls the sync tests make. */
export async function linkTasksToLark(world: MessagingWorld) {
  const call = <T>(path: string, body: unknown, token = world.editor.token) =>
    world.server.request<T>('POST', path, { token, body });
  const get = <T>(path: string, token = world.editor.token) => world.server.request<T>('GET', path, { token });
  await call('/api/create_task_list', { appId: world.appId });
  await call('/api/create_bitable', { appId: world.appId });
  await world.runJobs();
  const appToken = [...world.lark.bitable.apps.keys()][0] ?? '';
  const tableId = world.lark.bitable.apps.get(appToken)?.tables.find((t) => t.name === '缺陷')?.table_id ?? '';
  // The editor works in the base too (as a collaborator), as a team member would.
  world.lark.work.shareBase({ appToken, id: world.editor.openId });
  const start = world.server.clock.now();
  return {
    appToken,
    tableId,
    call,
    get,
    /** Creates a task or bug here and runs its push. */
    async create(
      recordType: 'task' | 'bug',
      summary: string,
      extra: Record<string, unknown> = {},
    ): Promise<TaskRecord> {
      const res = await call<TaskRecord>('/api/create_task', {
        appId: world.appId,
        recordType,
        summary,
        description: '说明',
        assigneeIds: [world.editor.userId],
        startAt: start,
        due: start + DAY,
        ...extra,
      });
      if (res.body.code !== 200) throw new Error(res.body.msg);
      await world.runJobs();
      return (await get<TaskRecord>(`/api/task?taskGuid=${res.body.data.guid}`)).body.data;
    },
    update: (record: TaskRecord, change: Record<string, unknown>) =>
      call<TaskRecord>('/api/update_task', {
        appId: world.appId,
        recordType: record.recordType,
        guid: record.guid,
        summary: record.summary,
        description: record.description,
        assigneeIds: record.assigneeIds,
        startAt: record.startAt,
        due: record.due,
        ...change,
      }),
    one: async (record: TaskRecord) => (await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data,
    history: async (record: TaskRecord) =>
      (await get<TaskHistoryEntry[]>(`/api/task_history?taskGuid=${record.guid}`)).body.data,
    refresh: async () => (await call<LarkSyncCounts>('/api/lark_refresh', { appId: world.appId })).body,
    listed: async (recordType: 'task' | 'bug') =>
      (await call<TaskRecord[]>('/api/tasks', { appId: world.appId, recordType, pageNo: 1, pageSize: 100 })).body,
    table: () => world.lark.bitable.apps.get(appToken)?.tables.find((t) => t.table_id === tableId),
  };
}
export type TasksLarkWorld = Awaited<ReturnType<typeof linkTasksToLark>>;
