import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode, type AppListItem, type NotificationRow } from '@release/contract';
import { grantApp, insertApp, insertNotification } from './helpers/factories.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const T0 = Date.UTC(2026, 6, 1);
const at = (minutes: number) => T0 + minutes * 60_000;
type State = NotificationRow['state'];

describe.each(testDialects())('notifications on %s', (dialect) => {
  let server: TestServer;
  let appA = 0;
  let appB = 0;
  let people = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    appA = await insertApp(server.db, { app_name: 'App A' });
    appB = await insertApp(server.db, { app_name: 'App B' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /**
   * Two fresh users. Alice: a1 (A, 1), a3 (A, 2), b2 (B, 3) unread; read (A, 5); ignored (B, 4).
   * Bob: two unread notices, one per app, newer than all of Alice's.
   */
  async function seed() {
    people += 1;
    const alice = await server.createUser({ username: `alice-${people}`, roleLevel: 30 });
    const bob = await server.createUser({ username: `bob-${people}`, roleLevel: 30 });
    const add = (userId: number, appId: number, minute: number, state: State = 'NOT_READ') =>
      insertNotification(server.db, { userId, appId, state, createTime: at(minute), description: `m${minute}` });
    const ids = {
      a1: await add(alice.userId, appA, 1),
      a3: await add(alice.userId, appA, 2),
      b2: await add(alice.userId, appB, 3),
      ignored: await add(alice.userId, appB, 4, 'IGNORE'),
      read: await add(alice.userId, appA, 5, 'READ'),
      bobA: await add(bob.userId, appA, 6),
      bobB: await add(bob.userId, appB, 7),
    };
    return { alice, bob, ids };
  }

  async function list(token: string, query = 'size=100&current=1&state=NOT_READ') {
    const res = await server.request<NotificationRow[]>('GET', `/api/messages?${query}`, { token });
    expect(res.status).toBe(200);
    return { ids: res.body.data.map((n) => n.id), rows: res.body.data, total: res.body.total };
  }
  const mark = (token: string, body: Record<string, unknown>) =>
    server.request('POST', '/api/message', { token, body });

  it("lists only the caller's unread notices, newest first, with the total", async () => {
    const { alice, bob, ids } = await seed();
    const unread = await list(alice.token);
    expect(unread.ids).toEqual([ids.b2, ids.a3, ids.a1]);
    expect(unread.total).toBe(3);
    expect(unread.rows[0]).toEqual({
      id: ids.b2,
      appId: appB,
      createTime: at(3),
      state: 'NOT_READ',
      messageInfo: { username: 'uploader', appId: appB, appName: `app ${appB}`, description: 'm3' },
    });
    expect((await list(bob.token)).ids).toEqual([ids.bobB, ids.bobA]);
  });

  it('filters by state, lists every state without one, and pages by size and current', async () => {
    const { alice, ids } = await seed();
    expect((await list(alice.token, 'state=READ')).ids).toEqual([ids.read]);
    expect((await list(alice.token, 'state=IGNORE')).ids).toEqual([ids.ignored]);
    const all = await list(alice.token, 'size=100&current=1');
    expect(all.ids).toEqual([ids.read, ids.ignored, ids.b2, ids.a3, ids.a1]);
    expect(all.total).toBe(5);
    const page2 = await list(alice.token, 'size=2&current=2&state=NOT_READ');
    expect(page2.ids).toEqual([ids.a1]);
    expect(page2.total).toBe(3);
  });

  it('{id, state: IGNORE} ignores that one notice', async () => {
    const { alice, ids } = await seed();
    expect((await mark(alice.token, { id: ids.a3, state: 'IGNORE' })).body).toEqual({
      code: 200,
      msg: 'success',
      data: null,
    });
    expect((await list(alice.token)).ids).toEqual([ids.b2, ids.a1]);
    expect((await list(alice.token, 'state=IGNORE')).ids).toEqual([ids.ignored, ids.a3]);
  });

  it("{appId, state: READ} reads only that app's notices and leaves ignored ones ignored", async () => {
    const { alice, bob, ids } = await seed();
    await mark(alice.token, { id: ids.a3, state: 'IGNORE' });
    expect((await mark(alice.token, { appId: appA, state: 'READ' })).body.code).toBe(200);
    const unread = await list(alice.token);
    expect(unread).toMatchObject({ ids: [ids.b2], total: 1 });
    expect((await list(alice.token, 'state=READ')).ids).toEqual([ids.read, ids.a1]);
    expect((await list(alice.token, 'state=IGNORE')).ids).toEqual([ids.ignored, ids.a3]);
    expect((await list(bob.token)).ids).toEqual([ids.bobB, ids.bobA]);
  });

  it("{state: READ} reads all of the caller's notices without resurrecting ignored ones", async () => {
    const { alice, bob, ids } = await seed();
    expect((await mark(alice.token, { state: 'READ' })).body.code).toBe(200);
    expect(await list(alice.token)).toMatchObject({ ids: [], total: 0 });
    expect((await list(alice.token, 'state=READ')).ids).toEqual([ids.read, ids.b2, ids.a3, ids.a1]);
    expect((await list(alice.token, 'state=IGNORE')).ids).toEqual([ids.ignored]);
    expect((await list(bob.token)).total).toBe(2);
  });

  it("a user's marks never touch another user's notices", async () => {
    const { alice, bob, ids } = await seed();
    const before = await list(alice.token, 'size=100&current=1');
    for (const body of [
      { id: ids.b2, state: 'IGNORE' },
      { id: ids.a1, state: 'READ' },
      { appId: appA, state: 'READ' },
      { state: 'READ' },
    ]) {
      expect((await mark(bob.token, body)).status).toBe(200);
    }
    expect(await list(alice.token, 'size=100&current=1')).toEqual(before);
    // Bob's own notices were read by his last call.
    expect((await list(bob.token, 'state=READ')).ids).toEqual([ids.bobB, ids.bobA]);
  });

  it('reading an app clears its unread count in the app list', async () => {
    const { alice } = await seed();
    await grantApp(server.db, appA, alice.userId, 'view');
    await grantApp(server.db, appB, alice.userId, 'view');
    const unreadOf = async () => {
      const res = await server.request<AppListItem[]>('GET', '/api/apps', { token: alice.token });
      return Object.fromEntries(res.body.data.map((a) => [a.appName, a.unreadMessage]));
    };
    expect(await unreadOf()).toEqual({ 'App A': 2, 'App B': 1 });
    await mark(alice.token, { appId: appA, state: 'READ' });
    expect(await unreadOf()).toEqual({ 'App A': 0, 'App B': 1 });
  });

  it('refuses malformed marks with 400 and changes nothing', async () => {
    const { alice } = await seed();
    const before = await list(alice.token, 'size=100&current=1');
    for (const body of [
      { state: 'NOT_READ' },
      { id: 1 },
      { state: 'DELETE' },
      { id: 'abc', state: 'IGNORE' },
      { state: 'IGNORE' },
      { appId: appA, state: 'IGNORE' },
    ]) {
      const res = await mark(alice.token, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ResultCode.badRequest);
    }
    expect(await list(alice.token, 'size=100&current=1')).toEqual(before);
    expect((await server.request('GET', '/api/messages?size=101', { token: alice.token })).status).toBe(400);
    expect((await server.request('GET', '/api/messages')).status).toBe(401);
  });
});
