import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode, TaskMessages, type TaskComment, type TaskHistoryEntry, type TaskRecord } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('comments on tasks and bugs on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let colleague: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let outsider: { userId: number; token: string };
  let appId: number;
  let task: TaskRecord;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    colleague = await server.createUser({ username: 'colleague', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    outsider = await server.createUser({ username: 'outsider', roleLevel: 30 });
    appId = await server.createApp({
      appName: 'G',
      appType: 'unity',
      path: 'game',
      edit: [editor, colleague],
      view: [viewer],
    });
    await server.createApp({ appName: 'H', appType: 'unity', path: 'hhhh', edit: [outsider] });
    const start = Date.UTC(2026, 10, 23);
    task = (
      await server.request<TaskRecord>('POST', '/api/create_task', {
        token: editor.token,
        body: {
          appId,
          recordType: 'task',
          summary: '评论用',
          assigneeIds: [editor.userId],
          startAt: start,
          due: start,
        },
      })
    ).body.data;
  });
  afterAll(async () => {
    await server?.close();
  });

  const comments = async (token = viewer.token) =>
    (await server.request<TaskComment[]>('GET', `/api/comments?taskGuid=${task.guid}`, { token })).body.data;
  const record = async () =>
    (await server.request<TaskRecord>('GET', `/api/task?taskGuid=${task.guid}`, { token: viewer.token })).body.data;

  it('adds comments oldest first, counted on the record', async () => {
    const first = await server.request<{ id: number }>('POST', '/api/create_comment', {
      token: editor.token,
      body: { taskGuid: task.guid, content: ' 第一条 ' },
    });
    expect(first.body.code).toBe(200);
    server.clock.advance(60_000);
    await server.request('POST', '/api/create_comment', {
      token: colleague.token,
      body: { taskGuid: task.guid, content: '第二条' },
    });
    const list = await comments();
    expect(list.map((c) => [c.content, c.creatorName])).toEqual([
      ['第一条', 'editor'],
      ['第二条', 'colleague'],
    ]);
    expect(list[1]?.updatedAt).toBe(server.clock.now());
    expect((await record()).commentCount).toBe(2);
  });

  it("refuses an empty comment with the spec's message", async () => {
    for (const content of ['', '   ']) {
      const res = await server.request('POST', '/api/create_comment', {
        token: editor.token,
        body: { taskGuid: task.guid, content },
      });
      expect([res.status, res.body.msg]).toEqual([400, TaskMessages.commentRequired]);
    }
    const id = (await comments())[0]?.id;
    const res = await server.request('POST', '/api/update_comment', {
      token: editor.token,
      body: { id, content: ' ' },
    });
    expect([res.status, res.body.msg]).toEqual([400, TaskMessages.commentRequired]);
  });

  it('lets the author edit and delete a comment, and nobody else but an admin', async () => {
    const [mine, theirs] = await comments();
    server.clock.advance(60_000);
    const edited = await server.request('POST', '/api/update_comment', {
      token: editor.token,
      body: { id: mine?.id, content: '第一条（改）' },
    });
    expect(edited.body.code).toBe(200);
    const notMine = await server.request('POST', '/api/update_comment', {
      token: editor.token,
      body: { id: theirs?.id, content: '改别人的' },
    });
    expect([notMine.status, notMine.body.msg]).toEqual([403, TaskMessages.notOwnComment]);
    const byViewer = await server.request('POST', '/api/create_comment', {
      token: viewer.token,
      body: { taskGuid: task.guid, content: '只读用户' },
    });
    expect([byViewer.status, byViewer.body.code]).toEqual([403, ResultCode.noPermission]);
    for (const res of [
      await server.request('GET', `/api/comments?taskGuid=${task.guid}`, { token: outsider.token }),
      await server.request('POST', '/api/create_comment', {
        token: outsider.token,
        body: { taskGuid: task.guid, content: '外人' },
      }),
      await server.request('POST', '/api/delete_comment', { token: outsider.token, body: { id: mine?.id } }),
    ]) {
      expect(res.status).toBe(404);
    }

    const after = await comments();
    expect(after.map((c) => c.content)).toEqual(['第一条（改）', '第二条']);
    expect(after[0]?.updatedAt).toBe(server.clock.now());

    const deleted = await server.request('POST', '/api/delete_comment', {
      token: editor.token,
      body: { id: mine?.id },
    });
    expect(deleted.body.code).toBe(200);
    const again = await server.request('POST', '/api/delete_comment', { token: editor.token, body: { id: mine?.id } });
    expect([again.status, again.body.msg]).toEqual([404, TaskMessages.commentNotFound]);
    const byAdmin = await server.request('POST', '/api/delete_comment', { token: admin, body: { id: theirs?.id } });
    expect(byAdmin.body.code).toBe(200);
    expect(await comments()).toEqual([]);
    expect((await record()).commentCount).toBe(0);
  });

  it("writes every comment change to the record's history", async () => {
    const history = (
      await server.request<TaskHistoryEntry[]>('GET', `/api/task_history?taskGuid=${task.guid}`, {
        token: viewer.token,
      })
    ).body.data;
    expect(history.filter((h) => h.field === 'comment').map((h) => [h.actorName, h.oldValue, h.newValue])).toEqual([
      ['editor', null, '第一条'],
      ['colleague', null, '第二条'],
      ['editor', '第一条', '第一条（改）'],
      ['editor', '第一条（改）', null],
      ['admin', '第二条', null],
    ]);
  });
});
