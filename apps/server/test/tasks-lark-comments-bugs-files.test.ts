import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LarkTaskMessages,
  type FieldGroups,
  type LarkSyncCounts,
  type TaskComment,
  type TaskRecord,
} from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { transferFile } from './helpers/upload-client.ts';
import { DAY, tasksLarkSyncCalls } from './helpers/tasks-lark-sync-calls.ts';

describe.each(testDialects())('tasks and bugs in step with Lark: comments, bugs, limits, files on %s', (dialect) => {
  let world: MessagingWorld;
  let appToken = '';
  let tableId = '';
  const start = Date.UTC(2026, 11, 1, 1);

  beforeAll(async () => {
    world = await startMessagingWorld(dialect);
    // Every pull reads each task (GET /tasks/:guid, 10 a second) while the fake's clock stands still between the
    // test's own steps; the rate-limit path itself is proved below with a 429 whose reset outlasts the in-place wait.
    world.lark.setRateLimit('task.get', null);
    // The app linked to a new task list and Bitable, as the first scenario of tasks-lark-sync.test.ts leaves it.
    await world.server.request('POST', '/api/create_task_list', {
      token: world.editor.token,
      body: { appId: world.appId },
    });
    await world.server.request('POST', '/api/create_bitable', {
      token: world.editor.token,
      body: { appId: world.appId },
    });
    await world.runJobs();
    appToken = [...world.lark.bitable.apps.keys()][0] ?? '';
    tableId = world.lark.bitable.apps.get(appToken)?.tables.find((t) => t.name === '缺陷')?.table_id ?? '';
  });
  afterAll(async () => {
    await world?.close();
  });

  const { call, get, createTask, update, larkTask, history, cells } = tasksLarkSyncCalls(
    () => world,
    () => ({ appToken, tableId }),
    start,
  );

  it('moves comments both ways: added, edited and deleted here; written in Lark', async () => {
    const record = await createTask('评论同步');
    const created = await call<{ id: number }>('/api/create_comment', { taskGuid: record.guid, content: '本地评论' });
    await world.runJobs();
    const inLark = () => world.lark.tasks.commentsOf(record.larkGuid ?? '').map((c) => c.content);
    expect(inLark()).toEqual(['本地评论']);
    await call('/api/update_comment', { id: created.body.data.id, content: '本地评论（改）' });
    await world.runJobs();
    expect(inLark()).toEqual(['本地评论（改）']);
    world.lark.work.commentOnTask({
      openId: world.editor.openId,
      taskGuid: record.larkGuid ?? '',
      content: '飞书里的评论',
    });
    expect(
      (await call<LarkSyncCounts>('/api/sync_comments', { taskGuid: record.guid, syncType: 'comment' })).body.data
        .comments,
    ).toBe(1);
    const comments = (await get<TaskComment[]>(`/api/comments?taskGuid=${record.guid}`)).body.data;
    expect(comments.map((c) => [c.content, c.creatorName])).toEqual([
      ['本地评论（改）', 'editor'],
      ['飞书里的评论', 'editor'],
    ]);
    await call('/api/delete_comment', { id: created.body.data.id });
    await world.runJobs();
    expect(inLark()).toEqual(['飞书里的评论']);
    // Lark lets only the author edit: an admin's edit of the Lark user's comment stays here, and is not undone by a sync.
    const theirs = comments.find((c) => c.content === '飞书里的评论');
    expect((await call('/api/update_comment', { id: theirs?.id, content: '管理员改过' }, world.admin)).body.code).toBe(
      200,
    );
    await world.runJobs();
    await call('/api/sync_comments', { taskGuid: record.guid, syncType: 'comment' });
    expect(inLark()).toEqual(['飞书里的评论']);
    expect((await get<TaskComment[]>(`/api/comments?taskGuid=${record.guid}`)).body.data.map((c) => c.content)).toEqual(
      ['管理员改过'],
    );
  });

  it('puts a bug into the Bitable, takes a Lark edit with a new option, and field_list offers that option', async () => {
    const res = await call<TaskRecord>('/api/create_task', {
      appId: world.appId,
      recordType: 'bug',
      summary: '闪退',
      assigneeIds: [world.editor.userId],
      startAt: start,
      due: start + DAY,
      bugSeverity: 'fatal',
      bugType: 'functional',
      moduleName: '登录',
    });
    await world.runJobs();
    const bug = (await get<TaskRecord>(`/api/task?taskGuid=${res.body.data.guid}`)).body.data;
    expect(bug.larkRecordId).toMatch(/^rec/);
    expect(cells(bug.larkRecordId)).toMatchObject({
      标题: '闪退',
      本地ID: bug.guid,
      开始时间: start,
      指派给: [world.editor.openId],
    });
    world.lark.work.shareBase({ appToken, id: world.editor.openId });
    await world.advance(1000);
    world.lark.work.editRecord({
      openId: world.editor.openId,
      appToken,
      tableId,
      recordId: bug.larkRecordId ?? '',
      fields: { 缺陷状态: '待验证', 严重程度: '一般' },
    });
    await call('/api/lark_refresh', { appId: world.appId });
    expect((await get<TaskRecord>(`/api/task?taskGuid=${bug.guid}`)).body.data).toMatchObject({
      bugStatus: '待验证',
      bugSeverity: 'medium',
    });
    const groups = (await get<FieldGroups>(`/api/field_list?appId=${world.appId}`)).body.data;
    expect(groups.bugStatus).toContainEqual({ value: '待验证', label: '待验证' });
    expect(groups.bugStatus).toContainEqual({ value: 'new', label: '新建' });
    expect(groups.moduleName).toEqual([{ value: '登录', label: '登录' }]);
  });

  it('waits out a rate limit with the job backoff, and renews an expired tenant token', async () => {
    const record = await createTask('限流');
    world.lark.injectError({
      route: 'task.patch',
      status: 429,
      body: { code: 99991400, msg: 'request trigger frequency limit' },
      headers: { 'x-ogw-ratelimit-reset': '40' },
    });
    await update(record, { summary: '限流后改' });
    await world.runJobs();
    expect(larkTask(record)?.summary).toBe('限流');
    const job = await world.server.db
      .selectFrom('jobs')
      .select(['status', 'last_error', 'run_at'])
      .where('kind', '=', 'tasks-sync.push')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'pending', last_error: LarkTaskMessages.rateLimited });
    await world.advance(40_000);
    await world.runJobs();
    expect(larkTask(record)?.summary).toBe('限流后改');

    for (const token of world.lark.state.tenantTokens) world.lark.expireToken(token.token);
    const fresh = (await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data;
    await update(fresh, { summary: '换了凭证' });
    await world.runJobs();
    expect(larkTask(record)?.summary).toBe('换了凭证');
  });

  it('moves attachments both ways: uploaded to Lark, downloaded from Lark, removed here → removed in Lark', async () => {
    const bytes = Buffer.from([137, 80, 78, 71, 0, 255, 1]);
    const key = await transferFile(world.server, world.editor.token, '截图 1.PNG', bytes, 'lark_attachment');
    const res = await call<TaskRecord>('/api/create_task', {
      appId: world.appId,
      recordType: 'task',
      summary: '附件同步',
      assigneeIds: [world.editor.userId],
      startAt: start,
      due: start + DAY,
      attachFiles: [{ s3Key: key, fileName: '截图 1.PNG' }],
    });
    await world.runJobs();
    const record = (await get<TaskRecord>(`/api/task?taskGuid=${res.body.data.guid}`)).body.data;
    const inLark = () =>
      [...world.lark.tasks.attachments.values()].filter((a) => !a.deleted && a.resource.id === record.larkGuid);
    expect(inLark().map((a) => [a.name, a.data])).toEqual([['截图 1.PNG', bytes]]);
    expect(record.attachFiles).toMatchObject([{ s3Key: key, fileToken: inLark()[0]?.guid }]);

    const userToken = world.lark.issueUserToken({ openId: world.editor.openId }).accessToken;
    const form = new FormData();
    form.set('resource_type', 'task');
    form.set('resource_id', record.larkGuid ?? '');
    form.set('file', new Blob([new TextEncoder().encode('飞书里的日志')]), 'crash.log');
    expect(
      (
        await fetch(`${world.lark.url}/open-apis/task/v2/attachments/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${userToken}` },
          body: form,
        })
      ).status,
    ).toBe(200);
    expect((await call<LarkSyncCounts>('/api/lark_refresh', { appId: world.appId })).body.data.attachments).toBe(1);
    const after = (await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data;
    const pulled = after.attachFiles.find((f) => f.fileName === 'crash.log');
    expect(pulled?.s3Key).toMatch(/^lark_attachment\/[A-Za-z0-9]{16}\.log$/);
    expect(await (await fetch(pulled?.url ?? '')).text()).toBe('飞书里的日志');

    await update(after, { attachFiles: [{ s3Key: pulled?.s3Key, fileName: 'crash.log' }] });
    await world.runJobs();
    expect(inLark().map((a) => a.name)).toEqual(['crash.log']);
  });

  it('brings no more attachments from Lark than a task may hold here (20), says so once, and the task can still be edited', async () => {
    const record = await createTask('附件很多的任务');
    const userToken = world.lark.issueUserToken({ openId: world.editor.openId }).accessToken;
    for (let from = 1; from <= 21; from += 5) {
      const form = new FormData();
      form.set('resource_type', 'task');
      form.set('resource_id', record.larkGuid ?? '');
      for (let i = from; i < Math.min(from + 5, 22); i += 1)
        form.append('file', new Blob([new TextEncoder().encode(`日志 ${i}`)]), `log-${i}.txt`);
      expect(
        (
          await fetch(`${world.lark.url}/open-apis/task/v2/attachments/upload`, {
            method: 'POST',
            headers: { authorization: `Bearer ${userToken}` },
            body: form,
          })
        ).status,
      ).toBe(200);
    }
    const inLark = [...world.lark.tasks.attachments.values()]
      .filter((a) => !a.deleted && a.resource.id === record.larkGuid)
      .map((a) => a.guid);
    expect(inLark).toHaveLength(21);
    // 19 of them are already here and in step (set directly: pulling each would take a second).
    const inStep = inLark.slice(0, 19).map((fileToken, i) => ({
      s3Key: `lark_attachment/instep${String(i).padStart(9, '0')}.txt`,
      fileName: `log-${i + 1}.txt`,
      fileToken,
    }));
    await world.server.db
      .updateTable('task_records')
      .set({ attach_files: JSON.stringify(inStep) })
      .where('guid', '=', record.guid)
      .execute();

    expect((await call<LarkSyncCounts>('/api/lark_refresh', { appId: world.appId })).body.data.attachments).toBe(1);
    const after = (await get<TaskRecord>(`/api/task?taskGuid=${record.guid}`)).body.data;
    expect(after.attachFiles.map((f) => f.fileToken)).toEqual(inLark.slice(0, 20));
    await call('/api/lark_refresh', { appId: world.appId });
    expect(
      (await history(record)).filter((h) => h.newValue === '飞书中的附件超过 20 个，其余附件未同步到本系统'),
    ).toHaveLength(1);
    // The drawer sends every file with an edit: the task stays editable, and the 21st stays in Lark.
    const edited = await update(after, {
      status: 'in_progress',
      attachFiles: after.attachFiles.map((f) => ({ s3Key: f.s3Key, fileName: f.fileName })),
    });
    expect(edited.body).toMatchObject({ code: 200, data: { status: 'in_progress' } });
    await world.runJobs();
    expect(
      [...world.lark.tasks.attachments.values()].filter((a) => !a.deleted && a.resource.id === record.larkGuid),
    ).toHaveLength(21);
  });

  it('tells in the history what to grant when Lark refuses (the app removed from the base)', async () => {
    const res = await call<TaskRecord>('/api/create_task', {
      appId: world.appId,
      recordType: 'bug',
      summary: '无权限',
      assigneeIds: [world.editor.userId],
      startAt: start,
      due: start + DAY,
    });
    await world.runJobs();
    world.lark.work.shareBase({ appToken, id: world.lark.app.appId, remove: true });
    const bug = (await get<TaskRecord>(`/api/task?taskGuid=${res.body.data.guid}`)).body.data;
    await update(bug, { summary: '无权限（改）' });
    await world.runJobs();
    expect(await history(bug)).toContainEqual(
      expect.objectContaining({
        source: 'lark',
        field: 'larkSyncFailed',
        newValue: LarkTaskMessages.larkCodes[1254701],
      }),
    );
    // The refused version is newer than the one last in step with Lark (the drawer shows the failure until one gets through).
    expect((await get<TaskRecord>(`/api/task?taskGuid=${bug.guid}`)).body.data).toMatchObject({
      recordVersion: 2,
      larkSyncedVersion: 1,
    });
    // The base refuses; the task list still syncs in the same refresh.
    const task = await createTask('表格无权限时的任务');
    await world.advance(1000);
    world.lark.work.editTask({
      openId: world.editor.openId,
      taskGuid: task.larkGuid ?? '',
      task: { summary: '任务照常同步' },
      updateFields: ['summary'],
    });
    const refresh = await call('/api/lark_refresh', { appId: world.appId });
    expect(refresh.body.msg).toBe(LarkTaskMessages.larkCodes[1254701]);
    expect((await get<TaskRecord>(`/api/task?taskGuid=${task.guid}`)).body.data.summary).toBe('任务照常同步');
  });
});
