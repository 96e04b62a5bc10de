import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstallMessages, type InstallPage, type InstallStats, type VersionHolders } from '@release/contract';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const INSTALLER_UA = 'com.apple.appstored/1.0 iOS/17.2 model/iPhone15,2 hwmodel/D73AP build/21C62 (6; dt:284)';
const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; SM-S9180 Build/UP1A) AppleWebKit/537.36 Chrome/120.0 Mobile';

describe.each(testDialects())('install statistics on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let appId: number;
  let apkId: number;
  let ipaId: number;
  let pass: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    const distributeUsers = [
      { userId: editor.userId, permit: 'edit' },
      { userId: viewer.userId, permit: 'view' },
    ];
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: '统计', appType: 'native', password: '246810', path: 'stats', distributeUsers },
      })
    ).body.data.appId;
    const publish = async (name: string, data: Buffer) => {
      const key = await transferFile(server, editor.token, name, data);
      return (
        await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
          token: editor.token,
          body: { appId, s3Url: key },
        })
      ).body.data.id;
    };
    apkId = await publish('a.apk', sampleApk({ versionName: '1.0.0' }));
    ipaId = await publish('a.ipa', sampleIpa());
    pass = (await server.request<InstallPage>('GET', '/api/app_version?url=stats&password=246810')).body.data.token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const downloaded = (body: Record<string, unknown>, headers: Record<string, string>) =>
    server.request('POST', '/api/app_version/installed', { headers, body: { url: 'stats', ...body } });
  const stats = async () =>
    (await server.request<InstallStats>('GET', `/api/app_version/stats?appId=${appId}`, { token: viewer.token })).body
      .data;
  const countsOf = async (id: number) => (await stats()).versions.find((v) => v.versionId === id);

  it('counts a download once per device per day; a signed-in user is named among who has it, anonymous ones are not', async () => {
    const anon = { 'app-version-token': pass, 'user-agent': ANDROID_UA };
    expect((await downloaded({ versionId: apkId, device: 'device-aaaa1111' }, anon)).status).toBe(200);
    await downloaded({ versionId: apkId, device: 'device-aaaa1111' }, anon);
    expect(await countsOf(apkId)).toEqual({ versionId: apkId, downloads: 1, installs: 0 });
    await downloaded({ versionId: apkId, device: 'device-bbbb2222' }, anon);
    await downloaded({ versionId: apkId }, { token: viewer.token, 'user-agent': ANDROID_UA });
    await downloaded({ versionId: apkId }, { token: viewer.token, 'user-agent': ANDROID_UA });
    expect((await countsOf(apkId))?.downloads).toBe(3);
    // The next day the same device counts again.
    server.clock.advance(24 * 60 * 60 * 1000);
    await downloaded({ versionId: apkId, device: 'device-aaaa1111' }, anon);
    const after = await stats();
    expect(after.versions.find((v) => v.versionId === apkId)?.downloads).toBe(4);
    expect(after.daily).toHaveLength(30);
    expect(after.daily.slice(-2).map((d) => d.downloads)).toEqual([3, 1]);

    const holders = await server.request<VersionHolders>('GET', `/api/app_version/holders?versionId=${apkId}`, {
      token: editor.token,
    });
    expect(holders.body.data.users.map((u) => u.username)).toEqual(['viewer']);
    expect(holders.body.data.devices).toEqual([{ family: 'Android', os: 'Android 14', count: 4 }]);
    // Who has a build is for editors.
    expect(
      (await server.request('GET', `/api/app_version/holders?versionId=${apkId}`, { token: viewer.token })).status,
    ).toBe(403);
  });

  it('refuses a count without the page pass; counts the iOS installer fetching the manifest as an install', async () => {
    const refused = await downloaded({ versionId: apkId }, {});
    expect([refused.status, refused.body.msg]).toEqual([400, InstallMessages.passwordRequired]);
    const page = await server.request<InstallPage>('GET', '/api/app_version?url=stats', {
      headers: { 'app-version-token': pass, 'x-install-device': 'phone-cccc3333' },
    });
    const installUrl = page.body.data.versions.find((v) => v.id === ipaId)?.installUrl ?? '';
    const manifest = decodeURIComponent(installUrl.replace(/^itms-services:\/\/\?action=download-manifest&url=/, ''));
    expect(manifest).toContain('&d=phone-cccc3333');
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(manifest, { headers: { 'user-agent': INSTALLER_UA } });
      expect(res.status).toBe(200);
    }
    await expect.poll(async () => (await countsOf(ipaId))?.installs).toBe(1);
    const holders = await server.request<VersionHolders>('GET', `/api/app_version/holders?versionId=${ipaId}`, {
      token: admin,
    });
    expect(holders.body.data).toEqual({
      versionId: ipaId,
      users: [],
      devices: [{ family: 'iPhone', os: 'iOS 17.2', count: 1 }],
    });
  });
});
