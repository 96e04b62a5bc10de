import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstallMessages, type InstallPage, type InstallStats, type VersionHolders } from '@release/contract';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const INSTALLER_UA = 'com.apple.appstored/1.0 iOS/17.2 model/iPhone15,2 hwmodel/D73AP build/21C62 (6; dt:284)';
const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; SM-S9180 Build/UP1A) AppleWebKit/537.36 Chrome/120.0 Mobile';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(testDialects())('install statistics on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let outsider: { userId: number; token: string };
  let appId: number;
  let apkId: number;
  let ipaId: number;
  let apkBytes: Buffer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    outsider = await server.createUser({ username: 'outsider', roleLevel: 20 });
    appId = await server.createApp({
      appName: '统计',
      path: 'stats',
      password: '246810',
      edit: [editor],
      view: [viewer],
    });
    // The outsider views another app only.
    await server.createApp({ appName: '别的应用', path: 'other', view: [outsider] });
    const publish = async (name: string, data: Buffer) => {
      const key = await transferFile(server, editor.token, name, data);
      return (
        await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
          token: editor.token,
          body: { appId, s3Url: key },
        })
      ).body.data.id;
    };
    apkBytes = sampleApk({ versionName: '1.0.0' });
    apkId = await publish('a.apk', apkBytes);
    ipaId = await publish('a.ipa', sampleIpa());
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A browser on the install page: its cookie jar, its sign-in (or the install password), its User-Agent. */
  function browser(agent: string, signIn?: string) {
    let cookie = '';
    const keep = (res: Response) => {
      const set = res.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0] ?? '';
    };
    const headers = () => ({
      'user-agent': agent,
      ...(cookie ? { cookie } : {}),
      ...(signIn ? { token: signIn } : {}),
    });
    return {
      cookie: () => cookie,
      async page(): Promise<InstallPage> {
        const res = await fetch(`${server.url}/api/app_version?url=stats${signIn ? '' : '&password=246810'}`, {
          headers: headers(),
        });
        keep(res);
        return ((await res.json()) as { data: InstallPage }).data;
      },
      /** Follows a download link as a browser does (no sign-in header on a navigation: the link says who). */
      async fetch(url: string, extra: Record<string, string> = {}, method = 'GET'): Promise<Response> {
        const res = await fetch(url, {
          method,
          redirect: 'manual',
          headers: { 'user-agent': agent, ...(cookie ? { cookie } : {}), ...extra },
        });
        keep(res);
        return res;
      },
    };
  }
  const linkOf = (page: InstallPage, id: number) => page.versions.find((v) => v.id === id)?.downloadUrl ?? '';
  const stats = async (token = viewer.token) =>
    (await server.request<InstallStats>('GET', `/api/app_version/stats?appId=${appId}`, { token })).body.data;
  const countsOf = async (id: number) => (await stats()).versions.find((v) => v.versionId === id);
  const holders = async (id: number, token = viewer.token) =>
    server.request<VersionHolders>('GET', `/api/app_version/holders?versionId=${id}`, { token });

  it('counts a download from the install page on the server once per device per day, then sends the browser to the file', async () => {
    const phone = browser(ANDROID_UA);
    const page = await phone.page();
    expect(phone.cookie()).toMatch(/^rs_device=[A-Za-z0-9_-]{16,}$/);
    const link = linkOf(page, apkId);
    expect(link).toMatch(/\/api\/app_version\/download\?id=\d+&expires=\d+&sig=[\w-]+&d=/);
    const first = await phone.fetch(link);
    expect(first.status).toBe(302);
    const file = await fetch(new URL(first.headers.get('location') ?? '', server.url));
    expect(Buffer.from(await file.arrayBuffer()).equals(apkBytes)).toBe(true);
    expect(await countsOf(apkId)).toEqual({ versionId: apkId, downloads: 1, installs: 0 });

    // The same phone again, a resumed download (Range from the middle) and a HEAD: no new count.
    await phone.fetch(link);
    const resumed = await phone.fetch(link, { range: 'bytes=100-' });
    expect(resumed.status).toBe(302);
    const rest = await fetch(new URL(resumed.headers.get('location') ?? '', server.url), {
      headers: { range: 'bytes=100-' },
    });
    expect(Buffer.from(await rest.arrayBuffer()).equals(apkBytes.subarray(100))).toBe(true);
    await phone.fetch(link, {}, 'HEAD');
    expect((await countsOf(apkId))?.downloads).toBe(1);

    // A second phone resuming before it ever started counts nothing; its start from byte 0 counts.
    const other = browser(ANDROID_UA);
    const otherLink = linkOf(await other.page(), apkId);
    await other.fetch(otherLink, { range: 'bytes=500-' });
    expect((await countsOf(apkId))?.downloads).toBe(1);
    await other.fetch(otherLink, { range: 'bytes=0-' });
    expect((await countsOf(apkId))?.downloads).toBe(2);

    // The next day the first phone counts again (its cookie names it, whatever the address).
    server.clock.advance(DAY_MS);
    await phone.fetch(linkOf(await phone.page(), apkId));
    const after = await stats();
    expect(after.versions.find((v) => v.versionId === apkId)?.downloads).toBe(3);
    expect(after.daily).toHaveLength(30);
    expect(after.daily.slice(-2).map((d) => d.downloads)).toEqual([2, 1]);
    // Anonymous testers are counted, never named.
    expect((await holders(apkId)).body.data).toEqual({
      versionId: apkId,
      users: [],
      devices: [{ family: 'Android', os: 'Android 14', count: 3 }],
    });
  });

  it('attributes a signed-in user’s download and OTA install to them; a forged user in the link is refused', async () => {
    const before = (await countsOf(apkId))?.downloads ?? 0;
    const tester = browser(IPHONE_UA, editor.token);
    const page = await tester.page();
    const link = linkOf(page, apkId);
    expect(link).toContain(`&u=${editor.userId}`);
    // Someone rewriting the link to count for another user: the signature no longer fits.
    const forged = await tester.fetch(link.replace(`&u=${editor.userId}`, `&u=${viewer.userId}`));
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { msg: string }).msg).toBe('链接已过期或签名无效，请刷新安装页面后重试');
    expect((await tester.fetch(link)).status).toBe(302);
    expect((await tester.fetch(link)).status).toBe(302);
    expect((await countsOf(apkId))?.downloads).toBe(before + 1);

    // The iOS installer fetches the manifest without cookies or sign-in: the signed link says who.
    const installUrl = page.versions.find((v) => v.id === ipaId)?.installUrl ?? '';
    const manifest = decodeURIComponent(installUrl.replace(/^itms-services:\/\/\?action=download-manifest&url=/, ''));
    expect(manifest).toContain(`&u=${editor.userId}`);
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(manifest, { headers: { 'user-agent': INSTALLER_UA } });
      expect(res.status).toBe(200);
    }
    expect(await countsOf(ipaId)).toEqual({ versionId: ipaId, downloads: 0, installs: 1 });

    // Who has these builds: the user with the device and time, for anyone who may view the app.
    const apk = (await holders(apkId)).body.data;
    expect(apk.users).toEqual([
      { userId: editor.userId, username: 'editor', family: 'iPhone', os: 'iOS 17.4', lastTime: server.clock.now() },
    ]);
    const ipa = (await holders(ipaId, admin)).body.data;
    expect(ipa.users.map((u) => [u.username, u.family, u.os])).toEqual([['editor', 'iPhone', 'iOS 17.2']]);
    expect(ipa.devices).toEqual([{ family: 'iPhone', os: 'iOS 17.2', count: 1 }]);
  });

  it('shows counts and holders only to those who may view the app', async () => {
    const refusedStats = await server.request('GET', `/api/app_version/stats?appId=${appId}`, {
      token: outsider.token,
    });
    expect(refusedStats.status).toBe(404);
    expect((await holders(apkId, outsider.token)).status).toBe(404);
    expect((await holders(apkId, editor.token)).status).toBe(200);
    expect((await server.request('GET', `/api/app_version/stats?appId=${appId}`)).status).toBe(401);
  });

  it('refuses an expired link, and one handed out before the install password changed', async () => {
    const phone = browser(ANDROID_UA);
    const link = linkOf(await phone.page(), apkId);
    server.clock.advance(2 * 60 * 60 * 1000);
    expect((await phone.fetch(link)).status).toBe(403);
    const fresh = linkOf(await phone.page(), apkId);
    await server.request('POST', '/api/app/install_access', {
      token: editor.token,
      body: { appId, regeneratePassword: true },
    });
    expect((await phone.fetch(fresh)).status).toBe(403);
    const refused = await fetch(`${server.url}/api/app_version?url=stats`, { headers: { cookie: phone.cookie() } });
    expect(((await refused.json()) as { msg: string }).msg).toBe(InstallMessages.passwordRequired);
  });
});
