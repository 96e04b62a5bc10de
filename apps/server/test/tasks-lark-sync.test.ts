import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LarkTaskMessages,
  ResultCode,
  type LarkAuthStatus,
  type LarkSyncCounts,
  type TaskRecord,
} from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { DAY, tasksLarkSyncCalls } from './helpers/tasks-lark-sync-calls.ts';

describe.each(testDialects())('tasks in step with Lark: linking, pushes, pulls and conflicts on %s', (dialect) => {
  let world: MessagingWorld;
  let appToken = '';
  let tableId = '';
  const start = Date.UTC(2026, 11, 1, 1);

  beforeAll(async () => {
    world = await startMessagingWorld(dialect);
    // Every pull reads each task (GET /tasks/:guid, 10 a second) while the fake's clock stands still between the
    // test's own steps; the rate-limit path itself is proved below with a 429 whose reset outlasts the in-place wait.
    world.lark.setRateLimit('task.get', null);
  });
  afterAll(async () => {
    await world?.close();
  });

  const { call, get, createTask, update, larkTask, history, table } = tasksLarkSyncCalls(
    () => world,
    () => ({ appToken, tableId }),
    start,
  );

  it('links the app to a new task list and Bitable (edit permit), once each; earlier tasks follow', async () => {
    const earlier = await createTask('关联前的任务');
    expect(earlier.larkGuid).toBeNull();
    const refused = await call('/api/create_task_list', { appId: world.appId }, world.viewer.token);
    expect(refused.body.code).toBe(ResultCode.noPermission);
    const linked = await call<LarkAuthStatus>('/api/create_task_list', { appId: world.appId });
    expect(linked.body.data.larkTaskListUrl).toContain('/client/todo/task_list?guid=');
    const list = [...world.lark.tasks.tasklists.values()][0];
    expect(list).toMatchObject({ name: '星际战舰 任务', owner: { type: 'app' } });
    expect(list?.members.map((m) => m.id)).toContain(world.editor.openId);
    expect([...world.lark.tasks.customFields.values()].map((f) => [f.name, f.options.map((o) => o.name)])).toEqual([
      ['状态', ['未开始', '进行中', '已完成', '已停止']],
      ['优先级', ['高', '中', '低']],
    ]);
    expect((await call('/api/create_task_list', { appId: world.appId })).body.msg).toBe(
      LarkTaskMessages.taskListExists,
    );
    await world.runJobs();
    const linkedEarlier = (await get<TaskRecord>(`/api/task?taskGuid=${earlier.guid}`)).body.data;
    expect(larkTask(linkedEarlier)).toMatchObject({
      summary: '关联前的任务',
      tasklists: [{ tasklist_guid: list?.guid }],
    });

    const base = await call<LarkAuthStatus>('/api/create_bitable', { appId: world.appId });
    expect(base.body.data.larkTableUrl).toMatch(/\/base\/\w{27}\?table=tbl/);
    appToken = [...world.lark.bitable.apps.keys()][0] ?? '';
    tableId = world.lark.bitable.apps.get(appToken)?.tables.find((t) => t.name === '缺陷')?.table_id ?? '';
    expect(table()?.fields.map((f) => f.field_name)).toEqual([
      '标题',
      '描述',
      '缺陷状态',
      '严重程度',
      '缺陷优先级',
      '缺陷类型',
      '模块',
      '指派给',
      '开始时间',
      '截止时间',
      '备注',
      '本地ID',
      '附件',
    ]);
    const auth = await call<LarkAuthStatus>('/api/lark_auth', { appId: world.appId }, world.viewer.token);
    expect(auth.body.data).toMatchObject({
      larkEnabled: true,
      problem: null,
      larkTaskListUrl: linked.body.data.larkTaskListUrl,
      larkTableUrl: base.body.data.larkTableUrl,
    });
  });

  it('puts a task created here into the Lark task list, with its assignee, times and priority', async () => {
    const record = await createTask('登录页改版');
    expect(record.larkGuid).toMatch(/^[0-9a-f-]{36}$/);
    const task = larkTask(record);
    expect(task).toMatchObject({
      summary: '登录页改版',
      description: '说明',
      start: { timestamp: String(start) },
      due: { timestamp: String(start + 2 * DAY) },
      completed_at: '0',
    });
    expect(task?.members).toEqual([{ id: world.editor.openId, type: 'user', role: 'assignee' }]);
    const priority = [...world.lark.tasks.customFields.values()].find((f) => f.name === '优先级');
    expect(task?.custom_fields).toContainEqual({
      guid: priority?.guid,
      single_select_value: priority?.options[0]?.guid,
    });
    // The job ran once; running the queue again sends nothing more.
    const patches = world.lark.requests.filter((r) => r.route === 'task.create').length;
    await world.runJobs();
    expect(world.lark.requests.filter((r) => r.route === 'task.create')).toHaveLength(patches);
  });

  it('completes and reopens the Lark task with the status chosen here', async () => {
    const record = await createTask('完成状态');
    const statusField = [...world.lark.tasks.customFields.values()].find((f) => f.name === '状态');
    const statusOf = () =>
      statusField?.options.find(
        (o) => o.guid === larkTask(record)?.custom_fields.find((v) => v.guid === statusField.guid)?.single_select_value,
      )?.name;
    expect((await update(record, { status: 'completed' })).body.code).toBe(200);
    await world.runJobs();
    expect(larkTask(record)?.completed_at).not.toBe('0');
    expect(statusOf()).toBe('已完成');
    const done = (await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data;
    expect((await update(done, { status: 'stopped' })).body.code).toBe(200);
    await world.runJobs();
    expect(larkTask(record)?.completed_at).toBe('0');
    expect(statusOf()).toBe('已停止');
  });

  it('shows an edit made in Lark after a refresh, with source lark in the history; and takes in tasks made in Lark', async () => {
    const record = await createTask('关卡编辑器');
    await world.advance(1000);
    world.lark.work.editTask({
      openId: world.editor.openId,
      taskGuid: record.larkGuid ?? '',
      task: { summary: '关卡编辑器（飞书里改）', completed_at: String(world.lark.clock.now()) },
      updateFields: ['summary', 'completed_at'],
    });
    const userToken = world.lark.issueUserToken({ openId: world.editor.openId }).accessToken;
    await fetch(`${world.lark.url}/open-apis/task/v2/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        summary: '飞书里新建的任务',
        tasklists: [{ tasklist_guid: [...world.lark.tasks.tasklists.keys()][0] }],
        members: [{ id: world.editor.openId, role: 'assignee' }],
      }),
    });
    const refreshed = await call<LarkSyncCounts>('/api/lark_refresh', { appId: world.appId }, world.viewer.token);
    expect(refreshed.body.data).toMatchObject({ pulled: 1, imported: 1 });
    const after = (await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data;
    expect(after).toMatchObject({
      summary: '关卡编辑器（飞书里改）',
      status: 'completed',
      recordVersion: record.recordVersion + 1,
    });
    expect(await history(record)).toContainEqual(
      expect.objectContaining({
        source: 'lark',
        field: 'summary',
        oldValue: '关卡编辑器',
        newValue: '关卡编辑器（飞书里改）',
      }),
    );
    const listed = await call<TaskRecord[]>('/api/tasks', {
      appId: world.appId,
      recordType: 'task',
      pageNo: 1,
      pageSize: 50,
    });
    expect(listed.body.data.find((r) => r.summary === '飞书里新建的任务')).toMatchObject({
      assigneeIds: [world.editor.userId],
      creatorId: world.editor.userId,
      status: 'not_started',
    });
  });

  it('takes a task made in Lark in once when two refreshes run at the same time', async () => {
    const userToken = world.lark.issueUserToken({ openId: world.editor.openId }).accessToken;
    await fetch(`${world.lark.url}/open-apis/task/v2/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        summary: '同时刷新',
        tasklists: [{ tasklist_guid: [...world.lark.tasks.tasklists.keys()][0] }],
      }),
    });
    const both = await Promise.all([
      call<LarkSyncCounts>('/api/lark_refresh', { appId: world.appId }),
      call<LarkSyncCounts>('/api/lark_refresh', { appId: world.appId }, world.viewer.token),
    ]);
    expect(both.map((r) => r.body.data.imported).sort()).toEqual([0, 1]);
    const listed = await call<TaskRecord[]>('/api/tasks', {
      appId: world.appId,
      recordType: 'task',
      keyword: '同时刷新',
      pageNo: 1,
      pageSize: 20,
    });
    expect(listed.body.data).toHaveLength(1);
  });

  it('reads Lark again on its own every 5 minutes', async () => {
    const record = await createTask('定时读取');
    await world.advance(1000);
    world.lark.work.editTask({
      openId: world.editor.openId,
      taskGuid: record.larkGuid ?? '',
      task: { description: '飞书里补充的说明' },
      updateFields: ['description'],
    });
    await world.runJobs();
    expect((await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data.description).toBe('说明');
    await world.advance(5 * 60_000);
    await world.runJobs();
    expect((await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data.description).toBe('飞书里补充的说明');
  });

  it('keeps the newer side when both were edited, and the older one in the history', async () => {
    const record = await createTask('双方修改');
    await world.advance(1000);
    expect((await update(record, { summary: '本地先改' })).body.code).toBe(200);
    await world.advance(1000);
    world.lark.work.editTask({
      openId: world.editor.openId,
      taskGuid: record.larkGuid ?? '',
      task: { summary: '飞书后改' },
      updateFields: ['summary'],
    });
    await world.runJobs();
    const lark = (await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data;
    expect(lark.summary).toBe('飞书后改');
    expect(await history(record)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'lark', field: 'summary', oldValue: '本地先改', newValue: '飞书后改' }),
        expect.objectContaining({ source: 'lark', field: 'conflict', newValue: '保留飞书中较新的修改' }),
      ]),
    );

    await world.advance(1000);
    world.lark.work.editTask({
      openId: world.editor.openId,
      taskGuid: record.larkGuid ?? '',
      task: { summary: '飞书先改' },
      updateFields: ['summary'],
    });
    await world.advance(1000);
    expect((await update(lark, { summary: '本地后改' })).body.code).toBe(200);
    await world.runJobs();
    expect(larkTask(record)?.summary).toBe('本地后改');
    expect(await history(record)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'lark', field: 'summary', oldValue: '飞书先改', newValue: '本地后改' }),
        expect.objectContaining({ source: 'lark', field: 'conflict', newValue: '保留本地较新的修改' }),
      ]),
    );
  });
});
