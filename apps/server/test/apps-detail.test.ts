import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppMessages, ResultCode } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

type Detail = {
  appId: number;
  password: string;
  downloadUrl: string;
  devWeComUrl: string | null;
  permit: string;
  collected: boolean;
  subscribed: boolean;
  users: Array<{ username: string; permit: string }>;
};

describe.each(testDialects())('app settings, permits and favourites on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let outsider: { userId: number; token: string };
  let appId: number;
  const base = {
    appName: '星际战舰',
    appType: 'unity',
    password: '135790',
    path: 'star',
    description: '第一个游戏',
    devWeComUrl: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=dev',
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    outsider = await server.createUser({ username: 'outsider', roleLevel: 20 });
    const created = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: {
        ...base,
        distributeUsers: [
          { userId: editor.userId, permit: 'edit' },
          { userId: viewer.userId, permit: 'view' },
        ],
      },
    });
    expect(created.body.code).toBe(200);
    appId = created.body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the app with its download address, users and the caller permit', async () => {
    const res = await server.request<Detail>('GET', `/api/app?appId=${appId}`, { token: admin });
    expect(res.body.data).toMatchObject({
      appName: '星际战舰',
      appType: 'unity',
      path: 'star',
      password: '135790',
      downloadUrl: `${server.url}/package/star`,
      permit: 'admin',
      categoryName: '未分类',
    });
    expect(res.body.data.users).toEqual([
      { userId: editor.userId, username: 'editor', permit: 'edit' },
      { userId: viewer.userId, username: 'viewer', permit: 'view' },
    ]);
  });

  it('keeps the install password encrypted at rest', async () => {
    const row = await server.db.selectFrom('apps').select('password').where('id', '=', appId).executeTakeFirstOrThrow();
    expect(row.password).not.toContain('135790');
  });

  it('shows view users the app without the robot webhooks, and hides it from outsiders', async () => {
    const asViewer = await server.request<Detail>('GET', `/api/app?appId=${appId}`, { token: viewer.token });
    expect(asViewer.body.data).toMatchObject({ permit: 'view', devWeComUrl: null, password: '135790' });
    const asEditor = await server.request<Detail>('GET', `/api/app?appId=${appId}`, { token: editor.token });
    expect(asEditor.body.data).toMatchObject({ permit: 'edit', devWeComUrl: base.devWeComUrl });
    const asOutsider = await server.request('GET', `/api/app?appId=${appId}`, { token: outsider.token });
    expect(asOutsider.status).toBe(404);
    expect(asOutsider.body.msg).toBe(AppMessages.appNotFound);
  });

  it('lets only admins change settings', async () => {
    const res = await server.request('POST', '/api/app', {
      token: editor.token,
      body: { ...base, appId, appName: '改名' },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(ResultCode.noPermission);
  });

  it('answers the spec messages for missing and weak fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, appName: '  ' }, '请输入应用名称!'],
      [{ ...base, appType: undefined }, '请选择项目类型!'],
      [{ ...base, path: '' }, '请补全下载地址!'],
      [{ ...base, password: '' }, '请输入密码'],
      [{ ...base, password: '12345' }, '密码必须是6-10位的数字'],
      [{ ...base, password: '888888' }, '密码强度不够'],
      [{ ...base, password: '345678' }, '密码强度不够'],
    ];
    for (const [body, message] of cases) {
      const res = await server.request('POST', '/api/app', {
        token: admin,
        body: { ...body, path: body.path ?? `p${message.length}` },
      });
      expect([message, res.status, res.body.msg.endsWith(message)]).toEqual([message, 400, true]);
    }
  });

  it('refuses a download path that another app uses, as path or as public path', async () => {
    const dup = await server.request('POST', '/api/app', { token: admin, body: { ...base, path: 'star' } });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe(AppMessages.duplicatePath);
    const row = await server.db
      .selectFrom('apps')
      .select('public_path')
      .where('id', '=', appId)
      .executeTakeFirstOrThrow();
    const dupPublic = await server.request('POST', '/api/app', {
      token: admin,
      body: { ...base, path: row.public_path },
    });
    expect(dupPublic.body.msg).toBe(AppMessages.duplicatePath);
  });

  it('keeps edit and view exclusive and admins out of the download-only list', async () => {
    const adminId = (await server.request<{ userId: number }>('GET', '/api/user/me', { token: admin })).body.data
      .userId;
    const asViewer = await server.request('POST', '/api/app', {
      token: admin,
      body: { ...base, appId, distributeUsers: [{ userId: adminId, permit: 'view' }] },
    });
    expect(asViewer.body.msg).toBe(AppMessages.adminAsViewer);
    const both = await server.request('POST', '/api/app', {
      token: admin,
      body: {
        ...base,
        appId,
        distributeUsers: [
          { userId: viewer.userId, permit: 'view' },
          { userId: viewer.userId, permit: 'edit' },
          { userId: editor.userId, permit: 'edit' },
        ],
      },
    });
    expect(both.body.code).toBe(200);
    const users = await server.request<Array<{ username: string; permit: string }>>(
      'GET',
      `/api/app_users?appId=${appId}`,
      { token: admin },
    );
    expect(users.body.data.map((u) => `${u.username}:${u.permit}`)).toEqual(['editor:edit', 'viewer:edit']);
    await server.request('POST', '/api/app', {
      token: admin,
      body: {
        ...base,
        appId,
        distributeUsers: [
          { userId: editor.userId, permit: 'edit' },
          { userId: viewer.userId, permit: 'view' },
        ],
      },
    });
  });

  it('favourites and subscribes, and only to apps the user can see', async () => {
    for (const type of ['collect', 'subscribe']) {
      expect(
        (
          await server.request('POST', '/api/app_collect', {
            token: viewer.token,
            body: { appIds: [appId], appCollectType: type },
          })
        ).body.code,
      ).toBe(200);
    }
    // Twice is harmless.
    expect(
      (
        await server.request('POST', '/api/app_collect', {
          token: viewer.token,
          body: { appIds: appId, appCollectType: 'collect' },
        })
      ).body.code,
    ).toBe(200);
    let detail = await server.request<Detail>('GET', `/api/app?appId=${appId}`, { token: viewer.token });
    expect(detail.body.data).toMatchObject({ collected: true, subscribed: true });
    await server.request('POST', '/api/app_cancel_collect', {
      token: viewer.token,
      body: { appIds: [appId], appCollectType: 'subscribe' },
    });
    detail = await server.request<Detail>('GET', `/api/app?appId=${appId}`, { token: viewer.token });
    expect(detail.body.data).toMatchObject({ collected: true, subscribed: false });
    const list = await server.request<Array<{ appId: number; collected: boolean }>>(
      'GET',
      '/api/apps?viewCollect=true',
      { token: viewer.token },
    );
    expect(list.body.data.map((a) => a.appId)).toEqual([appId]);
    const foreign = await server.request('POST', '/api/app_collect', {
      token: outsider.token,
      body: { appIds: [appId], appCollectType: 'collect' },
    });
    expect(foreign.status).toBe(404);
  });

  it('binds a user to apps in bulk and lists a user its own apps only', async () => {
    expect(
      (
        await server.request('POST', '/api/user/bind_app', {
          token: admin,
          body: { userId: outsider.userId, appIds: [appId], permit: 'view' },
        })
      ).body.code,
    ).toBe(200);
    const mine = await server.request<Array<{ appId: number; permit: string }>>('GET', '/api/user_apps', {
      token: outsider.token,
    });
    expect(mine.body.data).toEqual([{ appId, appName: '星际战舰', path: 'star', permit: 'view' }]);
    const others = await server.request('GET', `/api/user_apps?userId=${editor.userId}`, { token: outsider.token });
    expect(others.status).toBe(403);
    await server.request('POST', '/api/user/bind_app', {
      token: admin,
      body: { userId: outsider.userId, appIds: [appId], permit: null },
    });
    expect((await server.request('GET', `/api/app?appId=${appId}`, { token: outsider.token })).status).toBe(404);
    const unknownApp = await server.request('POST', '/api/user/bind_app', {
      token: admin,
      body: { userId: outsider.userId, appIds: [999999], permit: 'view' },
    });
    expect(unknownApp.status).toBe(404);
  });
});
