import * as lark from '@larksuiteoapi/node-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';

// The SDK's axios reads HTTP(S)_PROXY; the fake is on loopback and nothing else may be reached.
process.env.NO_PROXY = '127.0.0.1,localhost';
process.env.no_proxy = '127.0.0.1,localhost';
// The SDK logs "client ready" and every thrown HTTP error whatever the level; keep test output to results.
const quiet = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
};

describe('official @larksuiteoapi/node-sdk against the fake, unchanged', () => {
  let fake: LarkFake;
  let client: lark.Client;

  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true }) });
    client = new lark.Client({
      appId: fake.app.appId,
      appSecret: fake.app.appSecret,
      domain: fake.url,
      loggerLevel: lark.LoggerLevel.fatal,
      logger: quiet,
    });
  });
  afterEach(() => fake.close());

  it('fetches a tenant token and sends an im message with it', async () => {
    const user = fake.addUser({ name: '张三' });
    const result = await client.im.v1.message.create({
      params: { receive_id_type: 'open_id' },
      data: { receive_id: user.openId, msg_type: 'text', content: JSON.stringify({ text: 'hello' }) },
    });
    expect(result.code).toBe(0);
    expect(result.data?.message_id).toMatch(/^om_/);
    expect(fake.imMessages).toHaveLength(1);
    const tokenCalls = fake.requests.filter((r) => r.route === 'auth.tenant_access_token');
    expect(tokenCalls).toHaveLength(1);
    const sent = fake.requests.find((r) => r.route === 'im.message.create');
    expect(sent?.headers.authorization).toMatch(/^Bearer t-/);
  });

  it('throws on a 429 carrying code 99991400', async () => {
    const user = fake.addUser({ name: '李四' });
    fake.setRateLimit('im.message.create', { perSecond: 1 });
    const send = () =>
      client.im.v1.message.create({
        params: { receive_id_type: 'open_id' },
        data: { receive_id: user.openId, msg_type: 'text', content: '{"text":"x"}' },
      });
    await send();
    const error = await send().then(
      () => null,
      (e: unknown) => e as { response?: { status: number; data: { code: number }; headers: Record<string, string> } },
    );
    expect(error?.response?.status).toBe(429);
    expect(error?.response?.data.code).toBe(99991400);
    expect(error?.response?.headers['x-ogw-ratelimit-reset']).toBe('1');
  });

  it('lists wiki spaces across pages with the iterator', async () => {
    for (let i = 0; i < 45; i++) fake.addWikiSpace({ name: `空间 ${i}` });
    fake.addWikiSpace({ name: 'hidden', botIsMember: false });
    const names: string[] = [];
    for await (const page of await client.wiki.v2.space.listWithIterator({ params: { page_size: 20 } })) {
      for (const item of page?.items ?? []) names.push(item.name ?? '');
    }
    expect(names).toHaveLength(45);
    expect(names).not.toContain('hidden');
    expect(fake.requests.filter((r) => r.route === 'wiki.space.list')).toHaveLength(3);
  });

  it('reads a wiki node and lists its children', async () => {
    const space = fake.addWikiSpace({ name: '发布文档' });
    const root = fake.addWikiNode({ space_id: space.space_id, title: '根', obj_type: 'bitable' });
    fake.addWikiNode({ space_id: space.space_id, title: '子', parent_node_token: root.node_token });
    const node = await client.wiki.v2.space.getNode({ params: { token: root.node_token } });
    expect(node.data?.node?.obj_token).toBe(root.obj_token);
    expect(node.data?.node?.has_child).toBe(true);
    const children = await client.wiki.v2.spaceNode.list({
      path: { space_id: space.space_id },
      params: { parent_node_token: root.node_token },
    });
    expect(children.data?.items?.map((n) => n.title)).toEqual(['子']);
  });

  it('subscribes to a file through drive.v1.file.subscribe', async () => {
    fake.addDriveFile({ token: 'doxcnFAKE', type: 'docx' });
    const result = await client.drive.v1.file.subscribe({
      path: { file_token: 'doxcnFAKE' },
      params: { file_type: 'docx' },
    });
    expect(result.code).toBe(0);
    expect(fake.subscriptions).toMatchObject([{ fileToken: 'doxcnFAKE', fileType: 'docx' }]);
  });

  it("lets the SDK's EventDispatcher decrypt and check the fake's pushed events", async () => {
    const encryptKey = 'encrypt-key-for-tests';
    const app = fake.addApp({ encryptKey });
    const dispatcher = new lark.EventDispatcher({
      encryptKey,
      verificationToken: app.verificationToken,
      loggerLevel: lark.LoggerLevel.fatal,
      logger: quiet,
    });
    const seen: unknown[] = [];
    dispatcher.register({ 'drive.file.edit_v1': async (data: unknown) => void seen.push(data) });
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        void dispatcher
          .invoke(Object.assign(Object.create({ headers: req.headers }) as object, body))
          .then(() => res.end('{}'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const delivery = await fake.pushEvent({
      appId: app.appId,
      url: `http://127.0.0.1:${port}/events`,
      eventType: 'drive.file.edit_v1',
      event: { file_token: 'doxcnX', file_type: 'docx' },
    });
    server.close();
    expect(delivery.status).toBe('delivered');
    expect(seen).toMatchObject([{ file_token: 'doxcnX', event_type: 'drive.file.edit_v1', app_id: app.appId }]);
  });
  it('drives Task v2 through task.v2.* (tasklist, task with client_token, patch, comments, custom field)', async () => {
    const user = fake.addUser({ name: '王五' });
    const list = await client.task.v2.tasklist.create({
      data: { name: '发布系统', members: [{ id: user.openId, type: 'user', role: 'editor' }] },
    });
    const guid = list.data?.tasklist?.guid ?? '';
    const field = await client.task.v2.customField.create({
      data: {
        resource_type: 'tasklist',
        resource_id: guid,
        name: '优先级',
        type: 'single_select',
        single_select_setting: { options: [{ name: '高' }] },
      },
    });
    const high = field.data?.custom_field?.single_select_setting?.options?.[0]?.guid ?? '';
    const data = {
      summary: '首页崩溃',
      client_token: 'sdk-client-token-1',
      tasklists: [{ tasklist_guid: guid }],
      custom_fields: [{ guid: field.data?.custom_field?.guid ?? '', single_select_value: high }],
    };
    const task = await client.task.v2.task.create({ data });
    expect((await client.task.v2.task.create({ data })).data?.task?.guid).toBe(task.data?.task?.guid);
    const taskGuid = task.data?.task?.guid ?? '';
    const patched = await client.task.v2.task.patch({
      path: { task_guid: taskGuid },
      data: { task: { summary: '首页崩溃（已定位）' }, update_fields: ['summary'] },
    });
    expect(patched.data?.task?.summary).toBe('首页崩溃（已定位）');
    await client.task.v2.comment.create({ data: { content: '看一下', resource_type: 'task', resource_id: taskGuid } });
    const comments = await client.task.v2.comment.list({ params: { resource_id: taskGuid, resource_type: 'task' } });
    expect(comments.data?.items?.map((c) => c.content)).toEqual(['看一下']);
    const tasks = await client.task.v2.tasklist.tasks({ path: { tasklist_guid: guid } });
    expect(tasks.data?.items?.map((t) => t.summary)).toEqual(['首页崩溃（已定位）']);
    const missing = await client.task.v2.task
      .get({ path: { task_guid: '00000000-0000-0000-0000-000000000000' } })
      .catch((e: { response?: { status: number; data: { code: number } } }) => e.response);
    expect(missing).toMatchObject({ status: 404, data: { code: 1470404 } });
  });

  it('drives Bitable through bitable.v1.* (base, table, records, search iterator)', async () => {
    const app = await client.bitable.v1.app.create({ data: { name: '缺陷' } });
    const appToken = app.data?.app?.app_token ?? '';
    const table = await client.bitable.v1.appTable.create({
      path: { app_token: appToken },
      data: {
        table: {
          name: '缺陷列表',
          fields: [
            { field_name: '标题', type: 1 },
            { field_name: '状态', type: 3 },
          ],
        },
      },
    });
    const tableId = table.data?.table_id ?? '';
    const records = Array.from({ length: 30 }, (_, i) => ({ fields: { 标题: `缺陷 ${i}`, 状态: '新建' } }));
    await client.bitable.v1.appTableRecord.batchCreate({
      path: { app_token: appToken, table_id: tableId },
      data: { records },
    });
    const seen: string[] = [];
    for await (const page of await client.bitable.v1.appTableRecord.searchWithIterator({
      path: { app_token: appToken, table_id: tableId },
      params: { page_size: 20 },
      data: {},
    })) {
      for (const item of page?.items ?? []) seen.push(item.record_id ?? '');
    }
    expect(new Set(seen).size).toBe(30);
    const updated = await client.bitable.v1.appTableRecord.update({
      path: { app_token: appToken, table_id: tableId, record_id: seen[0] ?? '' },
      data: { fields: { 状态: '修复中' } },
    });
    expect(updated.data?.record?.fields).toMatchObject({ 状态: '修复中' });
    const fields = await client.bitable.v1.appTableField.list({ path: { app_token: appToken, table_id: tableId } });
    expect(fields.data?.items?.[1]?.property?.options?.map((o) => o.name)).toEqual(['新建', '修复中']);
  });
});
