import * as lark from '@larksuiteoapi/node-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../shared/clock.ts';
import { startLarkFake, type LarkFake } from './lark-fake.ts';

// The SDK's axios reads HTTP(S)_PROXY; the fake is on loopback and nothing else may be reached.
process.env.NO_PROXY = '127.0.0.1,localhost';
process.env.no_proxy = '127.0.0.1,localhost';
// The SDK logs "client ready" and every thrown HTTP error whatever the level; keep test output to results.
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, trace: () => undefined };

describe('official @larksuiteoapi/node-sdk against the fake, unchanged', () => {
  let fake: LarkFake;
  let client: lark.Client;

  beforeEach(async () => {
    fake = await startLarkFake({ clock: new FakeClock({ frozen: true }) });
    client = new lark.Client({ appId: fake.app.appId, appSecret: fake.app.appSecret, domain: fake.url, loggerLevel: lark.LoggerLevel.fatal, logger: quiet });
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
      client.im.v1.message.create({ params: { receive_id_type: 'open_id' }, data: { receive_id: user.openId, msg_type: 'text', content: '{"text":"x"}' } });
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
    const children = await client.wiki.v2.spaceNode.list({ path: { space_id: space.space_id }, params: { parent_node_token: root.node_token } });
    expect(children.data?.items?.map((n) => n.title)).toEqual(['子']);
  });

  it('subscribes to a file through drive.v1.file.subscribe', async () => {
    fake.addDriveFile({ token: 'doxcnFAKE', type: 'docx' });
    const result = await client.drive.v1.file.subscribe({ path: { file_token: 'doxcnFAKE' }, params: { file_type: 'docx' } });
    expect(result.code).toBe(0);
    expect(fake.subscriptions).toMatchObject([{ fileToken: 'doxcnFAKE', fileType: 'docx' }]);
  });

  it("lets the SDK's EventDispatcher decrypt and check the fake's pushed events", async () => {
    const encryptKey = 'encrypt-key-for-tests';
    const app = fake.addApp({ encryptKey });
    const dispatcher = new lark.EventDispatcher({ encryptKey, verificationToken: app.verificationToken, loggerLevel: lark.LoggerLevel.fatal, logger: quiet });
    const seen: unknown[] = [];
    dispatcher.register({ 'drive.file.edit_v1': async (data: unknown) => void seen.push(data) });
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        void dispatcher.invoke(Object.assign(Object.create({ headers: req.headers }) as object, body)).then(() => res.end('{}'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const delivery = await fake.pushEvent({ appId: app.appId, url: `http://127.0.0.1:${port}/events`, eventType: 'drive.file.edit_v1', event: { file_token: 'doxcnX', file_type: 'docx' } });
    server.close();
    expect(delivery.status).toBe('delivered');
    expect(seen).toMatchObject([{ file_token: 'doxcnX', event_type: 'drive.file.edit_v1', app_id: app.appId }]);
  });
});
