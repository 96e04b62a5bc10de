import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstallMessages, type InstallPage } from '@release/contract';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { DAY_MS } from '@release/inspect/testing/validity.ts';
import { transferFile } from './helpers/upload-client.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(testDialects())('the install page and iOS manifest on %s', (dialect) => {
  let server: TestServer;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let admin: string;
  let appBody: Record<string, unknown>;
  const ipa = sampleIpa({ version: '3.0.0', build: '300' });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    appBody = {
      appName: '演示',
      appType: 'native',
      password: '246810',
      path: 'demo',
      distributeUsers: [
        { userId: editor.userId, permit: 'edit' },
        { userId: viewer.userId, permit: 'view' },
      ],
    };
    const { body } = await server.request<{ appId: number }>('POST', '/api/app', { token: admin, body: appBody });
    appBody = { ...appBody, appId: body.data.appId };
    for (const [name, bytes] of [
      ['demo.apk', sampleApk()],
      ['demo.ipa', ipa],
    ] as const) {
      const key = await transferFile(server, editor.token, name, bytes);
      await server.request('POST', '/api/v2/upload_app', {
        token: editor.token,
        body: { appId: body.data.appId, s3Url: key, description: `${name} 说明` },
      });
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const page = (query: string, headers: Record<string, string> = {}, token?: string) =>
    server.request<InstallPage>('GET', `/api/app_version?${query}`, { headers, token });

  it('asks for the install password and refuses a wrong one', async () => {
    expect((await page('url=demo')).body.msg).toBe(InstallMessages.passwordRequired);
    const wrong = await page('url=demo&password=135790');
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe(InstallMessages.passwordWrong);
    expect((await page('url=nope&password=246810')).body.msg).toBe(InstallMessages.appMissing);
  });

  it('names the app on the password gate without the password, and nothing more; an unknown path is not found', async () => {
    const gate = await server.request<Record<string, unknown>>('GET', '/api/app_version/app?url=demo');
    expect(gate.body.data).toMatchObject({ appName: '演示', path: 'demo' });
    expect(Object.keys(gate.body.data).sort()).toEqual(['appIcon', 'appName', 'path']);
    const missing = await server.request('GET', '/api/app_version/app?url=nope');
    expect([missing.status, missing.body.msg]).toEqual([404, InstallMessages.appMissing]);
  });

  it('shows the versions newest first with install and download links, and a token that spares the password', async () => {
    const res = await page('url=demo&password=246810');
    expect(res.body.code).toBe(200);
    const { app, versions, token, secure } = res.body.data;
    expect(app).toMatchObject({ appName: '演示', path: 'demo' });
    expect(secure).toBe(false);
    expect(versions.map((v) => v.nativePackageType)).toEqual(['ios', 'android']);
    expect(versions[0]).toMatchObject({
      appVersion: '3.0.0',
      build: '300',
      profileType: 'ad-hoc',
      description: 'demo.ipa 说明',
    });
    expect(versions[0]?.installUrl).toMatch(
      /^itms-services:\/\/\?action=download-manifest&url=http%3A%2F%2F127\.0\.0\.1/,
    );
    expect(versions[1]?.installUrl).toBeNull();
    const again = await page('url=demo', { 'app-version-token': token });
    expect(again.body.code).toBe(200);
    // A pass that does not verify for the current password sends the visitor back to the password.
    expect((await page('url=demo', { 'app-version-token': `${token}x` })).body.msg).toBe(
      InstallMessages.passwordChanged,
    );
    server.clock.advance(8 * DAY_MS);
    expect((await page('url=demo', { 'app-version-token': token })).body.msg).toBe(InstallMessages.passwordRequired);
    server.clock.advance(-8 * DAY_MS);
  });

  it('shows the latest versions, and says so, when the link asks for a version that does not exist', async () => {
    const latest = await page('url=demo&password=246810');
    const [ios, android] = latest.body.data.versions;
    expect(latest.body.data.askedVersionMissing).toBe(false);
    const asked = await page(`url=demo&password=246810&id=${android?.id}`);
    expect([asked.body.data.askedVersionMissing, asked.body.data.versions.map((v) => v.id)]).toEqual([
      false,
      [android?.id, ios?.id],
    ]);
    for (const query of ['id=999', 'packId=999']) {
      const missing = await page(`url=demo&password=246810&${query}`);
      expect([missing.body.data.askedVersionMissing, missing.body.data.versions.map((v) => v.id)]).toEqual([
        true,
        [ios?.id, android?.id],
      ]);
    }
  });

  it('ends remembered passes and handed-out install links when the install password changes', async () => {
    const before = await page('url=demo&password=246810');
    const manifestUrl = decodeURIComponent((before.body.data.versions[0]?.installUrl ?? '').split('&url=')[1] ?? '');
    expect((await fetch(manifestUrl)).status).toBe(200);
    const changed = await server.request('POST', '/api/app', {
      token: admin,
      body: { ...appBody, password: '975318' },
    });
    expect(changed.body.code).toBe(200);
    const stale = await page('url=demo', { 'app-version-token': before.body.data.token });
    expect([stale.status, stale.body.msg]).toEqual([400, InstallMessages.passwordChanged]);
    expect((await fetch(manifestUrl)).status).toBe(403);
    expect((await page('url=demo&password=246810')).body.msg).toBe(InstallMessages.passwordWrong);
    const after = await page('url=demo&password=975318');
    expect((await page('url=demo', { 'app-version-token': after.body.data.token })).body.code).toBe(200);
    await server.request('POST', '/api/app', { token: admin, body: appBody });
  });

  it('serves an OTA manifest the installer can follow to the exact ipa', async () => {
    const res = await page('url=demo&password=246810');
    const installUrl = res.body.data.versions[0]?.installUrl ?? '';
    const manifestUrl = decodeURIComponent(installUrl.split('&url=')[1] ?? '');
    const manifest = await fetch(manifestUrl);
    expect(manifest.headers.get('content-type')).toContain('text/xml');
    const xml = await manifest.text();
    expect(xml).toContain('<string>com.example.demo</string>');
    expect(xml).toContain('<string>3.0.0</string>');
    expect(xml).toContain('<string>software-package</string>');
    const packageUrl = /<key>url<\/key>\s*<string>([^<]+)<\/string>/.exec(xml)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(sha(Buffer.from(await (await fetch(packageUrl)).arrayBuffer()))).toBe(sha(ipa));
    expect((await fetch(manifestUrl.replace('sig=', 'sig=x'))).status).toBe(403);
  });

  it('opens for signed-in members of the app (view or edit) and admins without the password, not for other users', async () => {
    const outsider = await server.createUser({ username: 'outsider', roleLevel: 20 });
    for (const token of [editor.token, viewer.token, admin]) {
      const res = await page('url=demo', {}, token);
      expect([res.body.code, res.body.data.access]).toEqual([200, 'member']);
    }
    expect((await page('url=demo', {}, outsider.token)).body.msg).toBe(InstallMessages.passwordRequired);
    expect((await page('url=demo&password=246810')).body.data.access).toBe('password');
  });

  it('refuses more than ten wrong passwords from one address', async () => {
    // The wrong tries made above were wiped by the right passwords after them: a right password starts the count over.
    for (let i = 0; i < 10; i += 1)
      expect((await page('url=demo&password=999999')).body.msg).toBe(InstallMessages.passwordWrong);
    const limited = await page('url=demo&password=246810');
    expect(limited.status).toBe(429);
    // The window is 15 minutes from the first of the ten failures; the message counts down with it.
    expect(limited.body.msg).toBe(InstallMessages.tooManyTries(15));
    server.clock.advance(6 * 60_000 + 1);
    expect((await page('url=demo&password=246810')).body.msg).toBe(InstallMessages.tooManyTries(9));
    server.clock.advance(9 * 60_000);
    expect((await page('url=demo&password=246810')).body.code).toBe(200);
  });
});

// Behind a reverse proxy and a CDN, links are built from configuration, never from the request.
describe('install links behind a proxy and a download host', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      publicUrl: 'https://release.example.com/',
      downloadBaseUrl: 'https://cdn.example.com',
    });
    const admin = await server.adminToken();
    const { body } = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: { appName: 'CDN', appType: 'native', password: '246810', path: 'cdn' },
    });
    const key = await transferFile(server, admin, 'demo.ipa', sampleIpa());
    await server.request('POST', '/api/v2/upload_app', { token: admin, body: { appId: body.data.appId, s3Url: key } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers https install links on the public URL and file links on the download host', async () => {
    const res = await server.request<InstallPage>('GET', '/api/app_version?url=cdn&password=246810');
    const version = res.body.data.versions[0];
    expect(res.body.data.secure).toBe(true);
    expect(version?.installUrl).toMatch(
      /^itms-services:\/\/\?action=download-manifest&url=https%3A%2F%2Frelease\.example\.com%2Fapi%2Fapp_version%2Fmanifest\.plist/,
    );
    // The page's download goes through the public URL (counted there), which sends it on to the download host.
    const download = new URL(version?.downloadUrl ?? '');
    expect(download.origin + download.pathname).toBe('https://release.example.com/api/app_version/download');
    const sent = await fetch(`${server.url}${download.pathname}${download.search}`, { redirect: 'manual' });
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toMatch(/^https:\/\/cdn\.example\.com\/api\/blob\/file\?/);
    expect(version?.iconUrl).toMatch(/^https:\/\/cdn\.example\.com\/api\/media\//);
  });
});
