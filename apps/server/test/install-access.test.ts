import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installPasswordProblem,
  InstallMessages,
  type AppDetail,
  type InstallAccess,
  type InstallPage,
} from '@release/contract';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

describe.each(testDialects())('install password and password-free link on the app page, on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let appId: number;
  let publicPath: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    const distributeUsers = [
      { userId: editor.userId, permit: 'edit' },
      { userId: viewer.userId, permit: 'view' },
    ];
    const created = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: { appName: '演示', appType: 'native', password: '246810', path: 'demo', distributeUsers },
    });
    appId = created.body.data.appId;
    publicPath = (await server.request<AppDetail>('GET', `/api/app?appId=${appId}`, { token: admin })).body.data
      .publicPath;
    const key = await transferFile(server, editor.token, 'demo.ipa', sampleIpa());
    await server.request('POST', '/api/v2/upload_app', { token: editor.token, body: { appId, s3Url: key } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const access = (token: string) =>
    server.request<InstallAccess>('GET', `/api/app/install_access?appId=${appId}`, { token });
  const update = (token: string, body: Record<string, unknown>) =>
    server.request<InstallAccess>('POST', '/api/app/install_access', { token, body: { appId, ...body } });
  const page = (query: string, headers: Record<string, string> = {}) =>
    server.request<InstallPage>('GET', `/api/app_version?${query}`, { headers });

  it('shows editors and admins the password and both links; view users and others are refused', async () => {
    for (const token of [editor.token, admin]) {
      const res = await access(token);
      expect(res.body.data).toEqual({
        appId,
        password: '246810',
        downloadUrl: `${server.url}/package/demo`,
        publicUrl: `${server.url}/package/${publicPath}`,
        publicInstall: false,
      });
    }
    expect((await access(viewer.token)).status).toBe(403);
    expect((await update(viewer.token, { regeneratePassword: true })).status).toBe(403);
    const outsider = await server.createUser({ username: 'outsider', roleLevel: 20 });
    expect((await access(outsider.token)).status).toBe(404);
    expect((await server.request('GET', `/api/app/install_access?appId=${appId}`)).status).toBe(401);
  });

  it('keeps the password-free link closed until an editor opens it, and closes it again', async () => {
    const closed = await page(`url=${publicPath}`);
    expect([closed.status, closed.body.msg]).toEqual([404, InstallMessages.publicClosed]);
    expect((await server.request('GET', `/api/app_version/app?url=${publicPath}`)).body.msg).toBe(
      InstallMessages.publicClosed,
    );

    expect((await update(editor.token, { publicInstall: true })).body.data.publicInstall).toBe(true);
    const open = await page(`url=${publicPath}`);
    expect(open.body.code).toBe(200);
    // Anyone opens it; it names its own link and hands out no pass to the password page.
    expect(open.body.data).toMatchObject({ access: 'public', token: '', app: { appName: '演示', path: publicPath } });
    expect(JSON.stringify(open.body.data)).not.toContain('/package/demo');
    const manifestUrl = decodeURIComponent((open.body.data.versions[0]?.installUrl ?? '').split('&url=')[1] ?? '');
    expect((await fetch(manifestUrl)).status).toBe(200);
    expect((await server.request('GET', `/api/app_version/app?url=${publicPath}`)).body.data).toMatchObject({
      appName: '演示',
      path: publicPath,
    });
    // The password page still asks for the password.
    expect((await page('url=demo')).body.msg).toBe(InstallMessages.passwordRequired);

    await update(editor.token, { publicInstall: false });
    expect((await page(`url=${publicPath}`)).body.msg).toBe(InstallMessages.publicClosed);
  });

  it('draws a new valid password that ends remembered passes and the old password', async () => {
    const before = await page('url=demo&password=246810');
    const res = await update(editor.token, { regeneratePassword: true });
    const fresh = res.body.data.password;
    expect(fresh).not.toBe('246810');
    expect(installPasswordProblem(fresh)).toBeNull();
    expect((await access(admin)).body.data.password).toBe(fresh);
    expect((await page('url=demo', { 'app-version-token': before.body.data.token })).body.msg).toBe(
      InstallMessages.passwordChanged,
    );
    expect((await page('url=demo&password=246810')).body.msg).toBe(InstallMessages.passwordWrong);
    expect((await page(`url=demo&password=${fresh}`)).body.code).toBe(200);
    // The app's settings show the same password.
    expect(
      (await server.request<AppDetail>('GET', `/api/app?appId=${appId}`, { token: admin })).body.data.password,
    ).toBe(fresh);
  });
});
