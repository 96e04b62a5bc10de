import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveMessages, MAX_LIVE_CONNECTIONS_PER_USER } from '@release/contract';
import { sha256Hex } from '../src/lib/crypto.ts';
import { dropPostgresSchema } from '../src/db/database.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { collectApp, grantApp } from './helpers/factories.ts';
import { connectLive, type LiveClient } from './helpers/live-client.ts';
import { publishedApp } from './helpers/published-app.ts';
import { startServerChild, type ServerChild } from './helpers/server-child.ts';
import { requestAt, startTestServer, type TestServer } from './helpers/test-app.ts';

const WAIT = { timeout: 10_000 };

describe.each(testDialects())('live notifications (/api/events) on %s', (dialect) => {
  let server: TestServer;
  let shop: Awaited<ReturnType<typeof publishedApp>>;
  let viewer: { userId: number; token: string };
  let outsider: { userId: number; token: string };
  const clients: LiveClient[] = [];
  const connect = async (token: string | null) => {
    const client = await connectLive(server.url, token);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    shop = await publishedApp(server);
    viewer = await server.createUser({ username: 'viewer', roleLevel: 30 });
    outsider = await server.createUser({ username: 'outsider', roleLevel: 30 });
    await grantApp(server.db, shop.appId, viewer.userId, 'view');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
  });

  it('streams a new version to a user who may view the app, not to one who may not, unbuffered by a proxy', async () => {
    const mine = await connect(viewer.token);
    const theirs = await connect(outsider.token);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toContain('text/event-stream');
    expect(mine.headers.get('x-accel-buffering')).toBe('no');
    expect(mine.headers.get('content-encoding')).toBeNull();
    await mine.next('ready');
    await theirs.next('ready');

    await shop.publish('1.0.1');
    expect((await mine.next('version', shop.appId)).data).toEqual({ appId: shop.appId });
    // A later event the outsider may see proves its stream was open all along and skipped the app's.
    const own = await publishedApp(server, '外部应用');
    await grantApp(server.db, own.appId, outsider.userId, 'view');
    await own.publish('2.0.0');
    await theirs.next('version', own.appId);
    expect(theirs.events.filter((e) => (e.data as { appId?: number }).appId === shop.appId)).toEqual([]);
  }, 60_000);

  it("tells of a version once the subscribers' notices are stored: the bell read on the event counts it", async () => {
    const subscriber = await server.createUser({ username: 'subscriber', roleLevel: 30 });
    await grantApp(server.db, shop.appId, subscriber.userId, 'view');
    await collectApp(server.db, shop.appId, subscriber.userId, 'subscribe');
    const unread = async () =>
      (
        await server.request<unknown[]>('GET', '/api/messages?size=100&current=1&state=NOT_READ', {
          token: subscriber.token,
        })
      ).body.data.length;
    const before = await unread();
    const mine = await connect(subscriber.token);
    await mine.next('ready');
    const heard = () => mine.events.some((e) => e.event === 'version');
    let publishing: Promise<number> | undefined;
    if (dialect === 'postgres') {
      // The notices' insert held back by a lock: the event must wait for it, not go out ahead.
      await server.db.connection().execute(async (conn) => {
        await sql`begin`.execute(conn);
        await sql`lock table notifications in exclusive mode`.execute(conn);
        publishing = shop.publish('1.0.2');
        await expect
          .poll(
            async () =>
              (
                await sql<{
                  n: number;
                }>`select count(*)::int as n from pg_locks where not granted and relation = 'notifications'::regclass`.execute(
                  conn,
                )
              ).rows[0]?.n,
            WAIT,
          )
          .toBe(1);
        expect(heard()).toBe(false);
        await sql`commit`.execute(conn);
      });
    } else publishing = shop.publish('1.0.2');
    await mine.next('version', shop.appId);
    expect(await unread()).toBe(before + 1);
    await publishing;
  }, 60_000);

  it('streams new update items and task changes of the app', async () => {
    const mine = await connect(viewer.token);
    await mine.next('ready');
    const admin = await server.adminToken();
    const workflow = await server.request<{ id: number }>('POST', '/api/workflow', {
      token: admin,
      body: { appId: shop.appId, tabName: '关卡', contentType: 'custom', manageType: 'other' },
    });
    const list = await server.request<Array<{ id: number; webhookUrl: string | null; webhookSecret: string | null }>>(
      'GET',
      `/api/workflow?appId=${shop.appId}`,
      { token: admin },
    );
    const row = list.body.data.find((w) => w.id === workflow.body.data.id);
    const pushed = await fetch(row?.webhookUrl ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${row?.webhookSecret ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ id: 'lv-1', message: '新关卡：熔岩洞穴', author: '策划', time: Date.now() }] }),
    });
    expect(pushed.status).toBe(200);
    await mine.next('items', shop.appId);

    await server.request('POST', '/api/task_view', {
      token: admin,
      body: { appId: shop.appId, taskViewEnabled: true },
    });
    const start = Date.UTC(2026, 10, 23, 1, 0, 0);
    const created = await server.request('POST', '/api/create_task', {
      token: admin,
      body: {
        appId: shop.appId,
        recordType: 'task',
        summary: '熔岩洞穴关卡',
        assigneeIds: [viewer.userId],
        startAt: start,
        due: start + 86_400_000,
      },
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(200);
    await mine.next('task', shop.appId);
  }, 60_000);

  it(`refuses a signed-out caller (401) and a user's stream past ${MAX_LIVE_CONNECTIONS_PER_USER} (429)`, async () => {
    expect((await connect(null)).status).toBe(401);
    const outsiderStreams = [];
    for (let i = 0; i < MAX_LIVE_CONNECTIONS_PER_USER; i++) outsiderStreams.push(await connect(outsider.token));
    // The outsider already holds one from the first test: the fifth of these is the sixth.
    const statuses = outsiderStreams.map((c) => c.status);
    expect(statuses.slice(0, MAX_LIVE_CONNECTIONS_PER_USER - 1).every((s) => s === 200)).toBe(true);
    const refused = outsiderStreams.at(-1) as LiveClient;
    expect(refused.status).toBe(429);
    expect(refused.text()).toContain(LiveMessages.tooMany);
    // Closing one frees its place.
    outsiderStreams[0]?.close();
    await expect
      .poll(async () => {
        const again = await connect(outsider.token);
        if (again.status === 200) again.close();
        return again.status;
      }, WAIT)
      .toBe(200);
  }, 60_000);
});

// On PostgreSQL several processes share the work: an upload on one reaches a browser connected to the other.
describe.runIf(testDialects().includes('postgres'))('live notifications across two server processes', () => {
  const schema = `two_live_${randomBytes(4).toString('hex')}`;
  const env = { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: schema, SECRET_KEY: randomBytes(32).toString('hex') };
  const servers: ServerChild[] = [];
  let live: LiveClient | null = null;

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) servers.push(await startServerChild('postgres', { env }));
  }, 120_000);
  afterAll(async () => {
    live?.close();
    for (const s of servers) await s.stop();
    await dropPostgresSchema(TEST_POSTGRES_URL, schema);
  });

  it('a version uploaded through the first process reaches a stream on the second', async () => {
    const [first, second] = servers as [ServerChild, ServerChild];
    const login = async (s: ServerChild) => {
      const res = await requestAt(s.url)<{ token: string }>('POST', '/api/user/login', {
        body: { username: s.admin.username, password: sha256Hex(s.admin.password) },
      });
      return res.body.data.token;
    };
    const token = await login(first);
    const uploader = { url: first.url, request: requestAt(first.url), adminToken: async () => token };
    const shop = await publishedApp(uploader as unknown as TestServer);

    live = await connectLive(second.url, await login(second));
    expect(live.status).toBe(200);
    await live.next('ready');
    await shop.publish('3.0.0');
    expect((await live.next('version', shop.appId)).data).toEqual({ appId: shop.appId });
  }, 120_000);
});
