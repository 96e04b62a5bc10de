import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appListExtraInfo, Messages, ResultCode, UNCATEGORISED_NAME, type AppListItem } from '@release/contract';
import { collectApp, grantApp, insertApp, insertNotification } from './helpers/factories.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const minute = 60_000;
const T0 = Date.UTC(2026, 5, 1);
const at = (minutes: number) => T0 + minutes * minute;

describe.each(testDialects())('app list on %s', (dialect) => {
  let server: TestServer;
  const token: Record<'admin' | 'dev1' | 'dev2' | 'viewer' | 'outsider', string> = {
    admin: '',
    dev1: '',
    dev2: '',
    viewer: '',
    outsider: '',
  };
  const userId: Record<'admin' | 'dev1' | 'dev2' | 'viewer', number> = { admin: 0, dev1: 0, dev2: 0, viewer: 0 };
  const app: Record<'alpha' | 'beta' | 'gamma' | 'delta' | 'epsilon' | 'zeta', number> = {
    alpha: 0,
    beta: 0,
    gamma: 0,
    delta: 0,
    epsilon: 0,
    zeta: 0,
  };
  let games = 0;
  let tools = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const db = server.db;
    token.admin = await server.adminToken();
    userId.admin = (
      await server.request<{ userId: number }>('GET', '/api/user/me', { token: token.admin })
    ).body.data.userId;
    for (const [name, roleLevel] of [
      ['dev1', 30],
      ['dev2', 30],
      ['viewer', 20],
      ['outsider', 10],
    ] as const) {
      const created = await server.createUser({ username: name, roleLevel });
      token[name] = created.token;
      if (name !== 'outsider') userId[name] = created.userId;
    }
    games = (
      await server.request<{ id: number }>('POST', '/api/category', {
        token: token.admin,
        body: { categoryName: 'Games' },
      })
    ).body.data.id;
    tools = (
      await server.request<{ id: number }>('POST', '/api/category', {
        token: token.admin,
        body: { categoryName: 'Tools' },
      })
    ).body.data.id;

    app.alpha = await insertApp(db, {
      app_name: 'Alpha',
      app_type: 'unity',
      category_id: games,
      create_time: at(1),
      update_time: at(50),
    });
    app.beta = await insertApp(db, {
      app_name: 'beta',
      app_type: 'native',
      category_id: games,
      create_time: at(2),
      update_time: at(30),
    });
    app.gamma = await insertApp(db, {
      app_name: 'Gamma 100%',
      app_type: 'unity',
      category_id: tools,
      create_time: at(3),
      update_time: at(10),
    });
    app.delta = await insertApp(db, {
      app_name: 'delta_x',
      app_type: 'native',
      create_time: at(4),
      update_time: at(40),
    });
    app.epsilon = await insertApp(db, {
      app_name: 'Epsilon',
      app_type: 'doc',
      create_time: at(5),
      update_time: at(20),
    });
    app.zeta = await insertApp(db, { app_name: 'zeta', app_type: 'unity', create_time: at(6), update_time: at(60) });

    await grantApp(db, app.alpha, userId.dev1, 'edit');
    await grantApp(db, app.beta, userId.dev1, 'edit');
    await grantApp(db, app.zeta, userId.dev1, 'view');
    await grantApp(db, app.beta, userId.dev2, 'edit');
    await grantApp(db, app.gamma, userId.dev2, 'edit');
    await grantApp(db, app.alpha, userId.viewer, 'view');
    await grantApp(db, app.gamma, userId.viewer, 'view');
    await grantApp(db, app.delta, userId.viewer, 'edit');

    await collectApp(db, app.beta, userId.admin, 'collect');
    await collectApp(db, app.epsilon, userId.admin, 'collect');
    await collectApp(db, app.gamma, userId.admin, 'subscribe');
    await collectApp(db, app.alpha, userId.dev1, 'collect');
    await collectApp(db, app.alpha, userId.dev1, 'subscribe');
    await collectApp(db, app.epsilon, userId.dev1, 'collect'); // no permit on it: must stay invisible to dev1

    for (const state of ['NOT_READ', 'NOT_READ', 'READ', 'IGNORE'] as const)
      await insertNotification(db, { userId: userId.dev1, appId: app.alpha, state });
    await insertNotification(db, { userId: userId.admin, appId: app.alpha });
    await insertNotification(db, { userId: userId.dev1, appId: app.beta, state: 'READ' });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function list(who: keyof typeof token, query: Record<string, string | number | boolean> = {}) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await server.request<AppListItem[]>('GET', `/api/apps?${qs}`, { token: token[who] });
    expect(res.status).toBe(200);
    return {
      items: res.body.data,
      names: res.body.data.map((a) => a.appName),
      extra: appListExtraInfo.parse(res.body.extraInfo),
    };
  }
  const byName = (items: AppListItem[], name: string) => items.find((a) => a.appName === name);

  it('admins see every app, newest update first, with the full list item', async () => {
    const { items, names, extra } = await list('admin');
    expect(names).toEqual(['zeta', 'Alpha', 'delta_x', 'beta', 'Epsilon', 'Gamma 100%']);
    expect(byName(items, 'Alpha')).toEqual({
      appId: app.alpha,
      appName: 'Alpha',
      appType: 'unity',
      appIcon: null,
      categoryId: games,
      categoryName: 'Games',
      path: expect.any(String),
      description: '',
      collected: false,
      subscribed: false,
      unreadMessage: 1,
      createTime: at(1),
      updateTime: at(50),
    });
    expect(byName(items, 'delta_x')).toMatchObject({ categoryId: null, categoryName: UNCATEGORISED_NAME });
    expect(extra).toMatchObject({ total: 6, native: 2, unity: 3 });
  });

  it('plain users see only apps they have an edit or view permit on', async () => {
    expect((await list('dev1')).names).toEqual(['zeta', 'Alpha', 'beta']);
    expect((await list('dev2')).names).toEqual(['beta', 'Gamma 100%']);
    expect((await list('viewer')).names).toEqual(['Alpha', 'delta_x', 'Gamma 100%']);
    const outsider = await list('outsider');
    expect(outsider.items).toEqual([]);
    expect(outsider.extra).toEqual({ total: 0, native: 0, unity: 0, appEditors: [] });
  });

  it('filters by app type; the type counts ignore the type filter', async () => {
    for (const [appType, expected] of [
      ['native', ['delta_x', 'beta']],
      ['unity', ['zeta', 'Alpha', 'Gamma 100%']],
      ['全部', ['zeta', 'Alpha', 'delta_x', 'beta', 'Epsilon', 'Gamma 100%']],
    ] as const) {
      const { names, extra } = await list('admin', { appType });
      expect(names).toEqual(expected);
      expect(extra).toMatchObject({ total: 6, native: 2, unity: 3 });
    }
    const dev1 = await list('dev1', { appType: 'native' });
    expect(dev1.names).toEqual(['beta']);
    expect(dev1.extra).toMatchObject({ total: 3, native: 1, unity: 2 });
  });

  it('filters by category: -1 all, 0 uncategorised, or one id; the counts follow', async () => {
    expect((await list('admin', { categoryId: -1 })).names).toHaveLength(6);
    const none = await list('admin', { categoryId: 0 });
    expect(none.names).toEqual(['zeta', 'delta_x', 'Epsilon']);
    expect(none.extra).toMatchObject({ total: 3, native: 1, unity: 1 });
    const inGames = await list('admin', { categoryId: games, appType: 'unity' });
    expect(inGames.names).toEqual(['Alpha']);
    expect(inGames.extra).toMatchObject({ total: 2, native: 1, unity: 1 });
    expect((await list('admin', { categoryId: tools })).names).toEqual(['Gamma 100%']);
    expect((await list('viewer', { categoryId: 0 })).names).toEqual(['delta_x']);
    expect((await list('admin', { categoryId: 99999 })).items).toEqual([]);
  });

  it('filters by developer: only apps the user holds the edit permit on', async () => {
    const dev1 = await list('admin', { userId: userId.dev1 });
    expect(dev1.names).toEqual(['Alpha', 'beta']);
    expect(dev1.extra).toMatchObject({ total: 2, native: 1, unity: 1 });
    expect((await list('admin', { userId: userId.viewer })).names).toEqual(['delta_x']);
    expect((await list('admin', { userId: -1 })).names).toHaveLength(6);
    // A plain user filtering by someone else still sees only their own apps.
    expect((await list('dev2', { userId: userId.dev1 })).names).toEqual(['beta']);
  });

  it('lists the developers with their edit counts, unaffected by the filters', async () => {
    const everyone = [
      { userId: userId.dev1, userName: 'dev1', count: 2 },
      { userId: userId.dev2, userName: 'dev2', count: 2 },
      { userId: userId.viewer, userName: 'viewer', count: 1 },
    ];
    expect((await list('admin')).extra.appEditors).toEqual(everyone);
    expect((await list('admin', { userId: userId.dev1, categoryId: games })).extra.appEditors).toEqual(everyone);
    // A plain user sees the developers of the apps visible to them.
    expect((await list('dev1')).extra.appEditors).toEqual([
      { userId: userId.dev1, userName: 'dev1', count: 2 },
      { userId: userId.dev2, userName: 'dev2', count: 1 },
    ]);
  });

  it("shows only the viewer's favourites with viewCollect=true", async () => {
    const admin = await list('admin', { viewCollect: true });
    expect(admin.names).toEqual(['beta', 'Epsilon']);
    expect(admin.extra).toMatchObject({ total: 2, native: 1, unity: 0 });
    expect((await list('dev1', { viewCollect: true })).names).toEqual(['Alpha']);
    expect((await list('dev2', { viewCollect: true })).names).toEqual([]);
    expect((await list('admin', { viewCollect: false })).names).toHaveLength(6);
  });

  it('searches app names case-insensitively, with % and _ taken literally', async () => {
    expect((await list('admin', { appName: 'ALPHA' })).names).toEqual(['Alpha']);
    expect((await list('admin', { appName: 'ta' })).names).toEqual(['zeta', 'delta_x', 'beta']);
    expect((await list('admin', { appName: '%' })).names).toEqual(['Gamma 100%']);
    expect((await list('admin', { appName: '_' })).names).toEqual(['delta_x']);
    const search = await list('admin', { appName: 'A' });
    expect(search.extra.total).toBe(search.names.length);
    expect((await list('dev2', { appName: 'alpha' })).names).toEqual([]);
  });

  it('sorts by update time, name or creation time, ascending or descending', async () => {
    expect((await list('admin', { orderByColumn: 'update_time', sort: 'ASC' })).names).toEqual([
      'Gamma 100%',
      'Epsilon',
      'beta',
      'delta_x',
      'Alpha',
      'zeta',
    ]);
    expect((await list('admin', { orderByColumn: 'create_time', sort: 'ASC' })).names).toEqual([
      'Alpha',
      'beta',
      'Gamma 100%',
      'delta_x',
      'Epsilon',
      'zeta',
    ]);
    expect((await list('admin', { orderByColumn: 'create_time', sort: 'DESC' })).names).toEqual([
      'zeta',
      'Epsilon',
      'delta_x',
      'Gamma 100%',
      'beta',
      'Alpha',
    ]);
    // Names sort the way people read them, not upper case first.
    expect((await list('admin', { orderByColumn: 'app_name', sort: 'ASC' })).names).toEqual([
      'Alpha',
      'beta',
      'delta_x',
      'Epsilon',
      'Gamma 100%',
      'zeta',
    ]);
    expect((await list('admin', { orderByColumn: 'app_name', sort: 'DESC' })).names).toEqual([
      'zeta',
      'Gamma 100%',
      'Epsilon',
      'delta_x',
      'beta',
      'Alpha',
    ]);
  });

  it('pages the list while the counts cover every match', async () => {
    const page = await list('admin', { pageNo: 2, pageSize: 2 });
    expect(page.names).toEqual(['delta_x', 'beta']);
    expect(page.extra.total).toBe(6);
  });

  it('marks favourites, subscriptions and unread notices per viewer', async () => {
    const admin = (await list('admin')).items;
    const dev1 = (await list('dev1')).items;
    expect(byName(admin, 'Alpha')).toMatchObject({ collected: false, subscribed: false, unreadMessage: 1 });
    expect(byName(dev1, 'Alpha')).toMatchObject({ collected: true, subscribed: true, unreadMessage: 2 });
    expect(byName(admin, 'beta')).toMatchObject({ collected: true, subscribed: false, unreadMessage: 0 });
    expect(byName(dev1, 'beta')).toMatchObject({ collected: false, subscribed: false, unreadMessage: 0 });
    expect(byName(admin, 'Gamma 100%')).toMatchObject({ collected: false, subscribed: true });
    expect(byName((await list('viewer')).items, 'Alpha')).toMatchObject({
      collected: false,
      subscribed: false,
      unreadMessage: 0,
    });
  });

  it('refuses unknown filter values with 400 and requires a session', async () => {
    for (const [key, value] of [
      ['appType', 'ios'],
      ['orderByColumn', 'password'],
      ['sort', 'sideways'],
      ['categoryId', '-2'],
      ['pageSize', '1001'],
    ] as const) {
      const res = await server.request('GET', `/api/apps?${key}=${value}`, { token: token.admin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ResultCode.badRequest);
      expect(res.body.msg).toContain(key);
    }
    const anonymous = await server.request('GET', '/api/apps');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.msg).toBe(Messages.tokenMissing);
  });
});
