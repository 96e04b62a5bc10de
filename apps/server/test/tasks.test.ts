import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ResultCode,
  TaskMessages,
  type FieldGroups,
  type TaskHistoryEntry,
  type TaskRecord,
  type TaskViewSetting,
} from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDialects())('the task and bug tracker on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let outsider: { userId: number; token: string };
  let appId: number;
  let otherAppId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    outsider = await server.createUser({ username: 'outsider', roleLevel: 30 });
    appId = await server.createApp({ appName: 'G', appType: 'unity', path: 'game', edit: [editor], view: [viewer] });
    otherAppId = await server.createApp({ appName: 'H', appType: 'unity', path: 'hhhh', edit: [outsider] });
  });
  afterAll(async () => {
    await server?.close();
  });

  const start = Date.UTC(2026, 10, 23, 1, 0, 0);
  const taskForm = (extra: Record<string, unknown> = {}) => ({
    appId,
    recordType: 'task',
    summary: '登录页改版',
    description: '按新设计稿',
    assigneeIds: [editor.userId],
    startAt: start,
    due: start + 3 * DAY,
    ...extra,
  });
  const bugForm = (extra: Record<string, unknown> = {}) => ({
    appId,
    recordType: 'bug',
    summary: '闪退',
    assigneeIds: [editor.userId],
    startAt: start,
    due: start + DAY,
    bugSeverity: 'fatal',
    bugPriority: 'urgent',
    bugType: 'functional',
    moduleName: '登录',
    ...extra,
  });
  const create = (body: Record<string, unknown>, token = editor.token) =>
    server.request<TaskRecord>('POST', '/api/create_task', { token, body });
  const update = (body: Record<string, unknown>, token = editor.token) =>
    server.request<TaskRecord>('POST', '/api/update_task', { token, body });
  const list = (body: Record<string, unknown>, token = editor.token) =>
    server.request<TaskRecord[]>('POST', '/api/tasks', {
      token,
      body: { appId, pageNo: 1, pageSize: 20, recordType: '', ...body },
    });

  it('lets an admin turn the task view on for one app only', async () => {
    const before = await server.request<TaskViewSetting>('GET', `/api/task_view?appId=${appId}`, {
      token: viewer.token,
    });
    expect(before.body.data).toEqual({
      appId,
      taskViewEnabled: false,
      larkEnabled: false,
      larkTaskListUrl: null,
      larkTableUrl: null,
    });
    const refused = await server.request('POST', '/api/task_view', {
      token: editor.token,
      body: { appId, taskViewEnabled: true },
    });
    expect([refused.status, refused.body.code]).toEqual([403, ResultCode.noPermission]);
    const on = await server.request<TaskViewSetting>('POST', '/api/task_view', {
      token: admin,
      body: { appId, taskViewEnabled: true },
    });
    expect(on.body.data.taskViewEnabled).toBe(true);
    expect(
      (await server.request<TaskViewSetting>('GET', `/api/task_view?appId=${appId}`, { token: viewer.token })).body.data
        .taskViewEnabled,
    ).toBe(true);
    expect(
      (await server.request<TaskViewSetting>('GET', `/api/task_view?appId=${otherAppId}`, { token: admin })).body.data
        .taskViewEnabled,
    ).toBe(false);
    const missing = await server.request('POST', '/api/task_view', {
      token: admin,
      body: { appId: 999_999, taskViewEnabled: true },
    });
    expect(missing.status).toBe(404);
  });

  it('answers the field options of the spec', async () => {
    const res = await server.request<FieldGroups>('GET', `/api/field_list?appId=${appId}`, { token: viewer.token });
    expect(res.body.data.status.map((o) => o.value)).toEqual(['not_started', 'in_progress', 'completed', 'stopped']);
    expect(res.body.data.priority.map((o) => o.value)).toEqual(['high', 'middle', 'low']);
    expect(res.body.data.bugStatus.map((o) => o.value)).toEqual([
      'new',
      'fixing',
      'fixed',
      'closed',
      'regression_failed',
      'as_designed',
      'reopened',
      'suspended',
      'cannot_reproduce',
    ]);
    expect(res.body.data.bugSeverity.map((o) => o.value)).toEqual(['fatal', 'high', 'medium', 'low']);
    expect(res.body.data.bugPriority.map((o) => o.value)).toEqual(['urgent', 'high', 'medium', 'low']);
    expect(res.body.data.bugType.map((o) => o.value)).toEqual([
      'functional',
      'UI',
      'animation',
      'performance',
      'compatibility',
      'usability',
    ]);
    expect(res.body.data.status[0]?.label).toBe('未开始');
  });

  it('refuses an incomplete form with the messages of the task form', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [taskForm({ summary: '  ' }), TaskMessages.summaryRequired],
      [taskForm({ assigneeIds: [] }), '请选择负责人!'],
      [bugForm({ assigneeIds: [] }), '请选择指派给!'],
      [taskForm({ startAt: null }), TaskMessages.timeRangeRequired],
      [bugForm({ due: undefined }), TaskMessages.timeRangeRequired],
      [taskForm({ due: start - DAY }), TaskMessages.timeRangeOrder],
      [taskForm({ assigneeIds: [987_654] }), TaskMessages.unknownUser(987_654)],
      [taskForm({ priority: 'urgent' }), TaskMessages.badOption('优先级', 'urgent')],
      [bugForm({ bugSeverity: 'catastrophic' }), TaskMessages.badOption('严重程度', 'catastrophic')],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect([message, res.status, res.body.msg]).toEqual([message, 400, message]);
    }
    expect((await list({})).body.total).toBe(0);
  });

  it('creates a task not_started with priority high and a bug new, whatever status is sent', async () => {
    const task = await create(taskForm({ status: 'completed' }));
    expect(task.body.code).toBe(200);
    expect(task.body.data).toMatchObject({
      recordType: 'task',
      summary: '登录页改版',
      status: 'not_started',
      priority: 'high',
      assigneeIds: [editor.userId],
      assignees: [{ userId: editor.userId, name: 'editor' }],
      creatorId: editor.userId,
      creatorName: 'editor',
      startAt: start,
      due: start + 3 * DAY,
      recordVersion: 1,
      commentCount: 0,
      larkGuid: null,
      larkRecordId: null,
      larkSyncedVersion: null,
      completedAt: null,
    });
    const bug = await create(bugForm({ bugStatus: 'closed' }));
    expect(bug.body.data).toMatchObject({
      recordType: 'bug',
      bugStatus: 'new',
      bugSeverity: 'fatal',
      bugPriority: 'urgent',
      bugType: 'functional',
      moduleName: '登录',
      status: null,
      priority: null,
    });
    const lowTask = await create(taskForm({ summary: '低优先级', priority: 'low' }));
    expect(lowTask.body.data.priority).toBe('low');
    const modules = await server.request<FieldGroups>('GET', `/api/field_list?appId=${appId}`, { token: viewer.token });
    expect(modules.body.data.moduleName).toEqual([{ value: '登录', label: '登录' }]);
  });

  it('never makes two records from one clientToken', async () => {
    const body = taskForm({ summary: '双击创建', clientToken: 'click-0001-abcdef' });
    const [a, b] = await Promise.all([create(body), create(body)]);
    const again = await create(body);
    expect([a.body.code, b.body.code, again.body.code]).toEqual([200, 200, 200]);
    expect(new Set([a.body.data.guid, b.body.data.guid, again.body.data.guid]).size).toBe(1);
    expect((await list({ keyword: '双击' })).body.total).toBe(1);
    // The token is per app: another app may use the same one.
    const elsewhere = await create({ ...body, appId: otherAppId }, admin);
    expect(elsewhere.body.data.guid).not.toBe(a.body.data.guid);
  });

  it('lists by type with both counts, filters, and pages newest first', async () => {
    const all = await list({});
    expect(all.body.total).toBe(4);
    expect(all.body.extraInfo).toEqual({ taskCount: 3, bugCount: 1 });
    const bugs = await list({ recordType: 'bug' });
    expect([bugs.body.total, bugs.body.data.map((r) => r.summary)]).toEqual([1, ['闪退']]);
    expect(bugs.body.extraInfo).toEqual({ taskCount: 3, bugCount: 1 });
    expect((await list({ recordType: 'task', pageSize: 2 })).body.data.map((r) => r.summary)).toEqual([
      '双击创建',
      '低优先级',
    ]);
    expect((await list({ recordType: 'task', pageSize: 2, pageNo: 2 })).body.data.map((r) => r.summary)).toEqual([
      '登录页改版',
    ]);
    expect((await list({ status: 'new' })).body.data.map((r) => r.summary)).toEqual(['闪退']);
    expect((await list({ assigneeId: viewer.userId })).body.total).toBe(0);
    expect((await list({ assigneeId: editor.userId })).body.total).toBe(4);
    expect((await list({}, viewer.token)).body.total).toBe(4);
  });

  it('edits any status freely, keeps recordVersion and a history row per changed field', async () => {
    const task = (await list({ recordType: 'task', keyword: '登录页' })).body.data[0] as TaskRecord;
    const edited = await update({
      ...taskForm({ summary: '登录页改版 v2', status: 'completed', assigneeIds: [editor.userId, viewer.userId] }),
      guid: task.guid,
      recordVersion: 1,
    });
    expect(edited.body.data).toMatchObject({
      summary: '登录页改版 v2',
      status: 'completed',
      recordVersion: 2,
      completedAt: server.clock.now(),
    });
    const back = await update({
      ...taskForm({ summary: '登录页改版 v2', status: 'not_started', assigneeIds: [editor.userId, viewer.userId] }),
      guid: task.guid,
    });
    expect(back.body.data).toMatchObject({ status: 'not_started', recordVersion: 3, completedAt: null });
    const stale = await update({ ...taskForm({ summary: '旧版本的编辑' }), guid: task.guid, recordVersion: 1 });
    expect([stale.status, stale.body.msg]).toEqual([409, TaskMessages.staleRecord]);
    const unchanged = await update({
      ...taskForm({ summary: '登录页改版 v2', status: 'not_started', assigneeIds: [editor.userId, viewer.userId] }),
      guid: task.guid,
    });
    expect(unchanged.body.data.recordVersion).toBe(3);

    const history = (
      await server.request<TaskHistoryEntry[]>('GET', `/api/task_history?taskGuid=${task.guid}`, {
        token: viewer.token,
      })
    ).body.data;
    expect(history.map((h) => [h.recordVersion, h.field, h.oldValue, h.newValue, h.actorName, h.source])).toEqual([
      [1, 'created', null, '登录页改版', 'editor', 'local'],
      [2, 'summary', '登录页改版', '登录页改版 v2', 'editor', 'local'],
      [2, 'assigneeIds', `[${editor.userId}]`, `[${editor.userId},${viewer.userId}]`, 'editor', 'local'],
      [2, 'completedAt', null, String(server.clock.now()), 'editor', 'local'],
      [2, 'status', 'not_started', 'completed', 'editor', 'local'],
      [3, 'completedAt', String(server.clock.now()), null, 'editor', 'local'],
      [3, 'status', 'completed', 'not_started', 'editor', 'local'],
    ]);

    const bug = (await list({ recordType: 'bug' })).body.data[0] as TaskRecord;
    const fixed = await update({
      ...bugForm({ bugStatus: 'cannot_reproduce', bugRemark: '真机未复现' }),
      guid: bug.guid,
    });
    expect(fixed.body.data).toMatchObject({ bugStatus: 'cannot_reproduce', bugRemark: '真机未复现', recordVersion: 2 });
    const badStatus = await update({ ...bugForm({ bugStatus: 'done' }), guid: bug.guid });
    expect([badStatus.status, badStatus.body.msg]).toEqual([400, TaskMessages.badOption('缺陷状态', 'done')]);
  });

  it("lets view users read but not write, and hides another app's records", async () => {
    const task = (await list({ recordType: 'task' })).body.data[0] as TaskRecord;
    const byViewer = await create(taskForm(), viewer.token);
    expect([byViewer.status, byViewer.body.code]).toEqual([403, ResultCode.noPermission]);
    const editByViewer = await update({ ...taskForm(), guid: task.guid }, viewer.token);
    expect(editByViewer.status).toBe(403);
    // An editor of another app sees nothing of this one, not even that a record exists.
    for (const res of [
      await list({}, outsider.token),
      await update({ ...taskForm(), guid: task.guid }, outsider.token),
      await update({ ...taskForm({ appId: otherAppId }), guid: task.guid }, outsider.token),
      await server.request('GET', `/api/task?taskGuid=${task.guid}`, { token: outsider.token }),
      await server.request('GET', `/api/task_history?taskGuid=${task.guid}`, { token: outsider.token }),
      await server.request('GET', `/api/field_list?appId=${appId}`, { token: outsider.token }),
    ]) {
      expect(res.status).toBe(404);
    }
    // Nor can an editor move a record into their own app.
    const moved = await update({ ...taskForm({ appId: otherAppId }), guid: task.guid }, admin);
    expect(moved.status).toBe(404);
  });

  it('keeps attachments uploaded under lark_attachment/ and refuses others', async () => {
    const key = await transferFile(server, editor.token, '截图 1.PNG', Buffer.from('png-bytes'), 'lark_attachment');
    expect(key).toMatch(/^lark_attachment\/[A-Za-z0-9]{16}\.png$/);
    const task = await create(taskForm({ summary: '带附件', attachFiles: [{ s3Key: key, fileName: '截图 1.PNG' }] }));
    expect(task.body.data.attachFiles).toMatchObject([
      { s3Key: key, fileName: '截图 1.PNG', name: '截图 1.PNG', fileToken: null },
    ]);
    const download = await fetch(task.body.data.attachFiles[0]?.url as string);
    expect([download.status, await download.text()]).toEqual([200, 'png-bytes']);

    const bugKey = await transferFile(server, editor.token, 'log.txt', Buffer.from('log'), 'lark_attachment');
    const bug = await create(bugForm({ summary: '带日志', bugFiles: [{ s3Key: bugKey, fileName: 'log.txt' }] }));
    expect(bug.body.data.bugAttachFiles.map((f) => f.fileName)).toEqual(['log.txt']);
    expect(bug.body.data.attachFiles).toEqual([]);

    // Someone else's upload, a package key, or a key never uploaded are refused.
    const others = await transferFile(server, admin, 'x.png', Buffer.from('x'), 'lark_attachment');
    const plain = await transferFile(server, editor.token, 'y.png', Buffer.from('y'), 'attachment');
    for (const [s3Key, message] of [
      [others, TaskMessages.badAttachment],
      ['lark_attachment/AAAAAAAAAAAAAAAA.png', TaskMessages.badAttachment],
      [plain, TaskMessages.attachmentKey],
    ]) {
      const res = await create(taskForm({ attachFiles: [{ s3Key, fileName: 'f.png' }] }));
      expect([res.status, res.body.msg]).toEqual([400, message]);
    }

    // Removing a file on edit keeps the rest; a later edit without attachFiles leaves them as they are.
    const second = await transferFile(server, editor.token, 'b.mp4', Buffer.from('mp4'), 'lark_attachment');
    const both = await update({
      ...taskForm({
        summary: '带附件',
        attachFiles: [
          { s3Key: key, fileName: '截图 1.PNG' },
          { s3Key: second, fileName: 'b.mp4' },
        ],
      }),
      guid: task.body.data.guid,
    });
    expect(both.body.data.attachFiles.map((f) => f.fileName)).toEqual(['截图 1.PNG', 'b.mp4']);
    const one = await update({
      ...taskForm({ summary: '带附件', attachFiles: [{ s3Key: second, fileName: 'b.mp4' }] }),
      guid: task.body.data.guid,
    });
    expect(one.body.data.attachFiles.map((f) => f.fileName)).toEqual(['b.mp4']);
    const kept = await update({ ...taskForm({ summary: '带附件 改' }), guid: task.body.data.guid });
    expect(kept.body.data.attachFiles.map((f) => f.fileName)).toEqual(['b.mp4']);
  });

  it('lists everyone as assignable', async () => {
    const res = await server.request<Array<{ userId: number; name: string; avatar: string | null }>>(
      'GET',
      '/api/all_users',
      { token: viewer.token },
    );
    expect(res.body.data.map((u) => u.name)).toEqual(['admin', 'editor', 'outsider', 'viewer']);
    expect(res.body.data[0]?.avatar).toBeNull();
  });
});
