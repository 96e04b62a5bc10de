import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, startLarkFake, type LarkFake, type LarkUser } from '@release/fakes';
import { LarkTaskMessages } from '@release/contract';
import { createLarkClient, type LarkApiError, type LarkClientOptions } from '../src/integrations/lark/lark-client.ts';
import { bitablePeople, bitableText, createLarkBitableClient } from '../src/integrations/lark/lark-bitable.ts';
import { createLarkTaskClient, larkTime } from '../src/integrations/lark/lark-task.ts';
import { larkTaskErrorMessage } from '../src/integrations/lark/lark-task-errors.ts';

describe('typed Lark clients (Task v2, Bitable) against the Lark fake', () => {
  let lark: LarkFake;
  let zhang: LarkUser;
  const waits: number[] = [];
  const clientFor = (options: LarkClientOptions = {}, app = lark.app) =>
    createLarkClient(
      {
        appId: app.appId,
        appSecret: app.appSecret,
        openBaseUrl: lark.url,
        accountsBaseUrl: lark.url,
        passportBaseUrl: lark.url,
      },
      lark.clock,
      {
        // Waiting moves the fake's clock: its rate windows are what the wait is for.
        sleep: async (ms) => {
          waits.push(ms);
          await lark.advance(ms);
        },
        ...options,
      },
    );
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as LarkApiError,
    );

  beforeEach(async () => {
    lark = await startLarkFake({ clock: new FakeClock({ frozen: true, start: Date.UTC(2026, 10, 23, 8) }) });
    zhang = lark.addUser({ name: '张三' });
    waits.length = 0;
  });
  afterEach(() => lark.close());

  it('creates a task list, a select field and a task once per client token, patches and comments', async () => {
    const tasks = createLarkTaskClient(clientFor());
    const list = await tasks.createTasklist('星际战舰 任务', [zhang.openId]);
    expect(list.url).toContain(list.guid);
    const field = await tasks.createSelectField(list.guid, '优先级', ['高', '中', '低']);
    expect(field.options.map((o) => o.name)).toEqual(['高', '中', '低']);
    const input = {
      tasklistGuid: list.guid,
      summary: '登录页白屏',
      description: '步骤',
      start: larkTime(1_795_420_800_000),
      due: larkTime(1_795_507_200_000),
      assignees: [zhang.openId],
      clientToken: 'record-0001-guid',
      custom_fields: [{ guid: field.guid, single_select_value: field.options[0]?.guid }],
    };
    const task = await tasks.createTask(input);
    expect((await tasks.createTask(input)).guid).toBe(task.guid);
    expect(lark.tasks.tasksOf(list.guid)).toHaveLength(1);
    const patched = await tasks.patchTask(task.guid, { summary: '登录页白屏（安卓）', due: null });
    expect(patched).toMatchObject({ summary: '登录页白屏（安卓）', start: { timestamp: '1795420800000' } });
    expect(patched.due).toBeUndefined();
    const comment = await tasks.createComment(task.guid, '已复现');
    lark.work.commentOnTask({ openId: zhang.openId, taskGuid: task.guid, content: '我来看' });
    await tasks.updateComment(comment.id, '已复现，安卓 14');
    expect((await tasks.listComments(task.guid)).map((c) => c.content)).toEqual(['已复现，安卓 14', '我来看']);
  });

  it('renews an expired tenant token and retries once', async () => {
    const client = clientFor();
    const tasks = createLarkTaskClient(client);
    await tasks.createTasklist('a', []);
    expect(lark.expireToken(await client.tenantToken())).toBe(true);
    await tasks.createTasklist('b', []);
    expect(lark.requests.filter((r) => r.route === 'auth.tenant_access_token')).toHaveLength(2);
  });

  it('waits out a rate limit by x-ogw-ratelimit-reset, and leaves longer waits to the caller', async () => {
    lark.setRateLimit('task.create', { perSecond: 1 });
    const tasks = createLarkTaskClient(clientFor());
    const list = await tasks.createTasklist('a', []);
    await tasks.createTask({ tasklistGuid: list.guid, summary: '一', assignees: [], clientToken: 'client-token-1' });
    await tasks.createTask({ tasklistGuid: list.guid, summary: '二', assignees: [], clientToken: 'client-token-2' });
    expect(waits).toEqual([1000]);
    expect(lark.tasks.tasksOf(list.guid)).toHaveLength(2);

    const impatient = createLarkTaskClient(clientFor({ maxInlineWaitMs: 0 }));
    const error = await failureOf(
      impatient.createTask({ tasklistGuid: list.guid, summary: '三', assignees: [], clientToken: 'client-token-3' }),
    );
    expect(error).toMatchObject({ httpStatus: 429, code: 99991400, retryAfterMs: 1000 });
    expect(larkTaskErrorMessage(error)).toBe(LarkTaskMessages.rateLimited);
  });

  it('tells the user what to grant when the app may not use the task list or the base', async () => {
    const ours = createLarkTaskClient(clientFor());
    const list = await ours.createTasklist('a', []);
    const otherApp = lark.addApp();
    const theirs = createLarkTaskClient(clientFor({}, otherApp));
    const denied = await failureOf(theirs.getTasklist(list.guid));
    expect(denied).toMatchObject({ httpStatus: 403, code: 1470403 });
    expect(larkTaskErrorMessage(denied)).toContain('共享');

    const base = await createLarkBitableClient(clientFor()).createBase('缺陷');
    const refused = await failureOf(
      createLarkBitableClient(clientFor({}, otherApp)).listFields(base.appToken, base.defaultTableId),
    );
    expect(refused).toMatchObject({ httpStatus: 403, code: 1254701 });
    expect(larkTaskErrorMessage(refused)).toContain('添加文档应用');
  });

  it('creates a base and a table, writes records by field name and reads them back', async () => {
    const bitable = createLarkBitableClient(clientFor());
    const base = await bitable.createBase('星际战舰 缺陷');
    const tableId = await bitable.createTable(base.appToken, '缺陷', [
      { field_name: '标题', type: 1 },
      { field_name: '缺陷状态', type: 3, property: { options: [{ name: '新建' }, { name: '修复中' }] } },
      { field_name: '指派给', type: 11 },
    ]);
    const created = await bitable.createRecord(
      base.appToken,
      tableId,
      { 标题: '闪退', 缺陷状态: '新建', 指派给: [{ id: zhang.openId }] },
      '3b8c4a8e-2c1e-4f8e-9d7a-1f2e3d4c5b6a',
    );
    await bitable.updateRecord(base.appToken, tableId, created.record_id, { 缺陷状态: '修复中' });
    const [row] = await bitable.searchAll(base.appToken, tableId);
    expect(bitableText(row?.fields.标题)).toBe('闪退');
    expect(row?.fields.缺陷状态).toBe('修复中');
    expect(bitablePeople(row?.fields.指派给)).toEqual([zhang.openId]);
    expect(row?.last_modified_time).toEqual(expect.any(Number));
    const fields = await bitable.listFields(base.appToken, tableId);
    expect(fields.find((f) => f.field_name === '缺陷状态')?.property?.options?.map((o) => o.name)).toEqual([
      '新建',
      '修复中',
    ]);
  });
});
