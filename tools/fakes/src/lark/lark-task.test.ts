import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { buildMultipart } from '../shared/multipart.ts';
import { bearer, call } from '../test-http.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';
import type { LarkUser } from './lark-state.ts';

type Answer = { code: number; msg: string; data: Record<string, any> };

describe('Lark fake: Task v2', () => {
  let fake: LarkFake;
  let tenant: string;
  let zhang: LarkUser;
  const api = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    call<Answer>(`${fake.url}/open-apis/task/v2${path}`, {
      method: init.method,
      body: init.body,
      headers: bearer(init.token ?? tenant),
    });
  const newList = async (name = '发布系统任务') =>
    (await api('/tasklists', { body: { name, members: [{ id: zhang.openId, type: 'user', role: 'editor' }] } })).body
      .data.tasklist;

  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true, start: Date.UTC(2026, 10, 23, 8) }) });
    zhang = fake.addUser({ name: '张三' });
    tenant = fake.issueTenantToken();
  });
  afterEach(() => fake.close());

  it('creates a tasklist and a task in it, idempotently by client_token', async () => {
    const list = await newList();
    expect(list).toMatchObject({
      name: '发布系统任务',
      owner: { type: 'app', id: fake.app.appId, role: 'owner' },
      members: [{ id: zhang.openId, role: 'editor', name: '张三' }],
    });
    const body = {
      summary: '登录页白屏',
      description: '复现步骤',
      client_token: 'local-task-0001',
      start: { timestamp: '1795420800000', is_all_day: false },
      due: { timestamp: '1795507200000', is_all_day: false },
      members: [{ id: zhang.openId, type: 'user', role: 'assignee' }],
      tasklists: [{ tasklist_guid: list.guid }],
    };
    const first = await api('/tasks', { body });
    expect(first.status).toBe(200);
    expect(first.body.data.task).toMatchObject({
      summary: '登录页白屏',
      status: 'todo',
      completed_at: '0',
      members: [{ id: zhang.openId, role: 'assignee' }],
      tasklists: [{ tasklist_guid: list.guid }],
    });
    expect(first.body.data.task.guid).toMatch(/^[0-9a-f-]{36}$/);
    const again = await api('/tasks', { body });
    expect(again.body.data.task.guid).toBe(first.body.data.task.guid);
    const listed = await api(`/tasklists/${list.guid}/tasks`);
    expect(listed.body.data).toMatchObject({
      has_more: false,
      items: [{ guid: first.body.data.task.guid, summary: '登录页白屏' }],
    });
    await fake.advance(5 * 60_000);
    expect((await api('/tasks', { body })).body.data.task.guid).not.toBe(first.body.data.task.guid);
  });

  it('refuses bad input with 1470400, missing ones with 404 and strangers with 403', async () => {
    const list = await newList();
    expect((await api('/tasks', { body: { summary: '' } })).body.code).toBe(1470400);
    const late = await api('/tasks', {
      body: {
        summary: 'x',
        start: { timestamp: '2000', is_all_day: false },
        due: { timestamp: '1000', is_all_day: false },
      },
    });
    expect([late.status, late.body.code]).toEqual([400, 1470400]);
    const missing = await api('/tasks/00000000-0000-0000-0000-000000000000');
    expect([missing.status, missing.body.code]).toEqual([404, 1470404]);
    const other = fake.addApp();
    const otherToken = fake.issueTenantToken(other.appId);
    const foreign = await api(`/tasklists/${list.guid}`, { token: otherToken });
    expect([foreign.status, foreign.body.code]).toEqual([403, 1470403]);
    const noAuth = await call<Answer>(`${fake.url}/open-apis/task/v2/tasklists/${list.guid}`);
    expect(noAuth.body.code).toBe(99991661);
  });

  it('patches listed fields, clears listed-but-absent ones and refuses completing twice', async () => {
    const list = await newList();
    const task = (
      await api('/tasks', {
        body: { summary: '旧标题', description: '说明', tasklists: [{ tasklist_guid: list.guid }] },
      })
    ).body.data.task;
    await fake.advance(1000);
    const patched = await api(`/tasks/${task.guid}`, {
      method: 'PATCH',
      body: {
        task: { summary: '新标题', completed_at: String(fake.clock.now()) },
        update_fields: ['summary', 'description', 'completed_at'],
      },
    });
    expect(patched.body.data.task).toMatchObject({ summary: '新标题', description: '', status: 'done' });
    expect(Number(patched.body.data.task.updated_at)).toBeGreaterThan(Number(task.updated_at));
    const twice = await api(`/tasks/${task.guid}`, {
      method: 'PATCH',
      body: { task: { completed_at: String(fake.clock.now()) }, update_fields: ['completed_at'] },
    });
    expect(twice.body.code).toBe(1470400);
    const members = await api(`/tasks/${task.guid}`, {
      method: 'PATCH',
      body: { task: {}, update_fields: ['members'] },
    });
    expect(members.body.code).toBe(1470400);
  });

  it('keeps custom field values by option guid, only for fields of the task’s tasklist', async () => {
    const list = await newList();
    const field = (
      await api('/custom_fields', {
        body: {
          resource_type: 'tasklist',
          resource_id: list.guid,
          name: '优先级',
          type: 'single_select',
          single_select_setting: { options: [{ name: '高' }, { name: '低', color_index: 3 }] },
        },
      })
    ).body.data.custom_field;
    const high = field.single_select_setting.options[0].guid;
    const task = (
      await api('/tasks', {
        body: {
          summary: 'a',
          tasklists: [{ tasklist_guid: list.guid }],
          custom_fields: [{ guid: field.guid, single_select_value: high }],
        },
      })
    ).body.data.task;
    expect(task.custom_fields).toMatchObject([
      { guid: field.guid, name: '优先级', type: 'single_select', single_select_value: high },
    ]);
    const loose = await api('/tasks', {
      body: { summary: 'b', custom_fields: [{ guid: field.guid, single_select_value: high }] },
    });
    expect(loose.body.code).toBe(1470400);
    const wrong = await api(`/tasks/${task.guid}`, {
      method: 'PATCH',
      body: {
        task: { custom_fields: [{ guid: field.guid, single_select_value: 'nope' }] },
        update_fields: ['custom_fields'],
      },
    });
    expect(wrong.body.code).toBe(1470400);
    const listed = await api(`/custom_fields?resource_type=tasklist&resource_id=${list.guid}`);
    expect(listed.body.data.items.map((f: { name: string }) => f.name)).toEqual(['优先级']);
    const renamed = await api(`/custom_fields/${field.guid}`, {
      method: 'PATCH',
      body: {
        custom_field: {
          name: '重要程度',
          single_select_setting: { options: [{ guid: high, name: '很高' }, { name: '中' }] },
        },
        update_fields: ['name', 'single_select_setting'],
      },
    });
    expect(renamed.body.data.custom_field).toMatchObject({
      name: '重要程度',
      single_select_setting: { options: [{ guid: high, name: '很高' }, { name: '低' }, { name: '中' }] },
    });
    const other = await newList('另一个清单');
    expect(
      (await api(`/custom_fields/${field.guid}/add`, { body: { resource_type: 'tasklist', resource_id: other.guid } }))
        .body.code,
    ).toBe(0);
    expect(
      (
        await api('/tasks', {
          body: {
            summary: 'c',
            tasklists: [{ tasklist_guid: other.guid }],
            custom_fields: [{ guid: field.guid, single_select_value: high }],
          },
        })
      ).body.code,
    ).toBe(0);
  });

  it('pages a tasklist with opaque tokens and takes user tokens only on GET /tasks', async () => {
    const list = await newList();
    for (let i = 0; i < 5; i++)
      await api('/tasks', {
        body: {
          summary: `任务 ${i}`,
          tasklists: [{ tasklist_guid: list.guid }],
          members: [{ id: zhang.openId, role: 'assignee' }],
        },
      });
    const first = await api(`/tasklists/${list.guid}/tasks?page_size=3`);
    expect(first.body.data).toMatchObject({ has_more: true });
    const second = await api(`/tasklists/${list.guid}/tasks?page_size=3&page_token=${first.body.data.page_token}`);
    expect(second.body.data.items).toHaveLength(2);
    expect(second.body.data.has_more).toBe(false);
    expect((await api('/tasks')).body.code).toBe(99991663);
    const user = fake.issueUserToken({ openId: zhang.openId }).accessToken;
    expect((await api('/tasks?type=my_tasks', { token: user })).body.data.items).toHaveLength(5);
  });

  it('comments: create, list both ways, author-only patch and delete', async () => {
    const list = await newList();
    const task = (await api('/tasks', { body: { summary: 'a', tasklists: [{ tasklist_guid: list.guid }] } })).body.data
      .task;
    const mine = (
      await api('/comments', { body: { content: '第一条', resource_type: 'task', resource_id: task.guid } })
    ).body.data.comment;
    expect(mine).toMatchObject({
      content: '第一条',
      creator: { id: fake.app.appId, type: 'app' },
      resource_id: task.guid,
    });
    const theirs = fake.work.commentOnTask({ openId: zhang.openId, taskGuid: task.guid, content: '飞书里的评论' });
    const desc = await api(`/comments?resource_id=${task.guid}&direction=desc`);
    expect(desc.body.data.items.map((c: { content: string }) => c.content)).toEqual(['飞书里的评论', '第一条']);
    const forbidden = await api(`/comments/${theirs.id}`, {
      method: 'PATCH',
      body: { comment: { content: 'x' }, update_fields: ['content'] },
    });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 1470403]);
    expect(
      (
        await api(`/comments/${mine.id}`, {
          method: 'PATCH',
          body: { comment: { content: '改过' }, update_fields: ['content'] },
        })
      ).body.data.comment.content,
    ).toBe('改过');
    expect((await api(`/comments/${mine.id}`, { method: 'DELETE' })).body.code).toBe(0);
    expect((await api(`/comments/${mine.id}`)).status).toBe(404);
    expect((await api('/comments', { body: { content: ' ', resource_id: task.guid } })).body.code).toBe(1470400);
  });

  it('lets a Lark user edit a task they may use, and no other', async () => {
    const list = await newList();
    const task = (await api('/tasks', { body: { summary: 'a', tasklists: [{ tasklist_guid: list.guid }] } })).body.data
      .task;
    expect(
      fake.work.editTask({
        openId: zhang.openId,
        taskGuid: task.guid,
        task: { summary: '飞书里改的' },
        updateFields: ['summary'],
      }),
    ).toMatchObject({ summary: '飞书里改的' });
    const li = fake.addUser({ name: '李四' });
    expect(() =>
      fake.work.editTask({ openId: li.openId, taskGuid: task.guid, task: { summary: 'x' }, updateFields: ['summary'] }),
    ).toThrow(/1470403/);
    expect((await api(`/tasks/${task.guid}`)).body.data.task.summary).toBe('飞书里改的');
  });

  it('answers 429 / 99991400 past 10 creates a second, and injected errors', async () => {
    for (let i = 0; i < 10; i++) expect((await api('/tasks', { body: { summary: `t${i}` } })).status).toBe(200);
    const limited = await api('/tasks', { body: { summary: 'one too many' } });
    expect([limited.status, limited.body.code, limited.headers.get('x-ogw-ratelimit-reset')]).toEqual([
      429,
      99991400,
      '1',
    ]);
    await fake.advance(1000);
    fake.injectError({ route: 'task.create', status: 500, body: { code: 1470500, msg: 'server error' } });
    expect((await api('/tasks', { body: { summary: 'x' } })).body.code).toBe(1470500);
    expect((await api('/tasks', { body: { summary: 'x' } })).status).toBe(200);
  });

  it('uploads attachments and serves each link 3 times within 3 minutes', async () => {
    const list = await newList();
    const task = (await api('/tasks', { body: { summary: 'a', tasklists: [{ tasklist_guid: list.guid }] } })).body.data
      .task;
    const bytes = Buffer.from([0, 255, 1, 128, 7]);
    const form = buildMultipart([
      { name: 'resource_type', value: 'task' },
      { name: 'resource_id', value: task.guid },
      { name: 'file', filename: 'log.bin', value: bytes },
    ]);
    const uploaded = await call<Answer>(`${fake.url}/open-apis/task/v2/attachments/upload`, {
      raw: form.body,
      headers: { ...bearer(tenant), 'content-type': form.contentType },
    });
    expect(uploaded.body.data.items).toMatchObject([{ name: 'log.bin', size: 5 }]);
    const listed = await api(`/attachments?resource_type=task&resource_id=${task.guid}`);
    const url = listed.body.data.items[0].url as string;
    for (let i = 0; i < 3; i++) expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(bytes);
    expect((await fetch(url)).status).toBe(403);
    // "每个附件尺寸不超过50MB": one byte more is refused, and nothing is attached.
    const big = buildMultipart([
      { name: 'resource_type', value: 'task' },
      { name: 'resource_id', value: task.guid },
      { name: 'file', filename: 'big.bin', value: Buffer.alloc(50 * 1024 * 1024 + 1) },
    ]);
    const refused = await call<Answer>(`${fake.url}/open-apis/task/v2/attachments/upload`, {
      raw: big.body,
      headers: { ...bearer(tenant), 'content-type': big.contentType },
    });
    expect([refused.status, refused.body.code]).toEqual([400, 1470400]);
    expect(
      (await api(`/attachments?resource_type=task&resource_id=${task.guid}`)).body.data.items.map(
        (a: { name: string }) => a.name,
      ),
    ).toEqual(['log.bin']);
  });
  it('lets an out-of-process test edit a task as a Lark user and read it in /__fake/state', async () => {
    const list = await newList();
    const task = (await api('/tasks', { body: { summary: 'a', tasklists: [{ tasklist_guid: list.guid }] } })).body.data
      .task;
    const edited = await call(`${fake.url}/__fake/work/tasks/edit`, {
      body: { openId: zhang.openId, taskGuid: task.guid, task: { summary: '控制接口改的' }, updateFields: ['summary'] },
    });
    expect(edited.body).toMatchObject({ summary: '控制接口改的' });
    const refused = await call(`${fake.url}/__fake/work/tasks/edit`, {
      body: { openId: zhang.openId, taskGuid: task.guid, task: {}, updateFields: ['members'] },
    });
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toContain('1470400');
    const state = await call<{ tasks: Array<{ summary: string }> }>(`${fake.url}/__fake/state`);
    expect(state.body.tasks.map((t) => t.summary)).toEqual(['控制接口改的']);
  });
});
