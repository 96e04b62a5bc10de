import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppMessages, type AppVersionRow, type CreatedApiToken, type VersionExistsResult } from '@release/contract';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { CORRUPT_JSON_WARNING } from '../src/db/json-column.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

describe.each(testDialects())('latest-version and exists lookups on %s', (dialect) => {
  let server: TestServer;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let outsider: { userId: number; token: string };
  let appId: number;
  const published = new Map<string, AppVersionRow>();

  async function publish(label: string, fileName: string, bytes: Buffer) {
    const fileKey = await transferFile(server, editor.token, fileName, bytes);
    const res = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url: fileKey, description: label },
    });
    expect(res.body.code).toBe(200);
    published.set(label, res.body.data);
  }
  const latest = (query: string, token = viewer.token) =>
    server.request<AppVersionRow | null>('GET', `/api/app_versions/latest?${query}`, { token });
  const exists = (query: Record<string, string | number>, token = viewer.token) =>
    server.request<VersionExistsResult>(
      'GET',
      `/api/app_versions/exists?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
      { token },
    );

  beforeAll(async () => {
    server = await startTestServer(dialect);
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    outsider = await server.createUser({ username: 'outsider', roleLevel: 30 });
    appId = await server.createApp({ appName: '商城', path: 'shop', edit: [editor], view: [viewer] });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers null while an app has no version of that platform', async () => {
    const res = await latest('path=shop&platform=android');
    expect(res.body).toMatchObject({ code: 200, data: null });
  });

  it('answers the newest version of each platform, shaped as in the version list', async () => {
    await publish('apk 1', 'shop-1.0.0.apk', sampleApk({ versionName: '1.0.0', versionCode: 7 }));
    await publish('ipa', 'shop.ipa', sampleIpa({ version: '1.2.3', build: '45' }));
    await publish('apk 2', 'shop-2.0.0.apk', sampleApk({ versionName: '2.0.0', versionCode: 8 }));

    const android = await latest('path=shop&platform=android');
    expect(android.body.data).toMatchObject({
      id: published.get('apk 2')?.id,
      appVersion: '2.0.0',
      build: '8',
      nativePackageType: 'android',
      description: 'apk 2',
    });
    const list = await server.request<AppVersionRow[]>(
      'GET',
      `/api/app_versions?appId=${appId}&nativePackageType=android`,
      { token: viewer.token },
    );
    expect(android.body.data).toEqual(list.body.data[0]);
    expect((await fetch(android.body.data?.cdnUrl ?? '')).status).toBe(200);

    const ios = await latest('path=shop&platform=ios');
    expect(ios.body.data).toMatchObject({ id: published.get('ipa')?.id, appVersion: '1.2.3', build: '45' });
    expect((await latest('path=shop&platform=web')).body.data).toBeNull();
  });

  it('lists a version whose stored JSON is damaged, its damaged parts read as empty and reported once', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => {
      if ((warning as Error & { code?: string }).code === CORRUPT_JSON_WARNING) warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const id = published.get('apk 1')?.id ?? 0;
      await server.db
        .updateTable('app_versions')
        .set({ metadata: `{"kind":"${dialect}`, warnings: `"${dialect}"`, attach_files: `[{"fileKey":"${dialect}"}]` })
        .where('id', '=', id)
        .execute();
      for (let read = 0; read < 2; read += 1) {
        const list = await server.request<AppVersionRow[]>(
          'GET',
          `/api/app_versions?appId=${appId}&nativePackageType=android`,
          { token: viewer.token },
        );
        expect(list.status).toBe(200);
        expect(list.body.data.map((v) => v.description)).toEqual(['apk 2', 'apk 1']);
        expect(list.body.data[1]).toMatchObject({
          id,
          appVersion: '1.0.0',
          metadata: {},
          warnings: [],
          attachFiles: [],
        });
      }
      // Node hands warnings over on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message.split(' is unreadable')[0]).sort()).toEqual([
        'stored JSON in app_versions.attach_files',
        'stored JSON in app_versions.metadata',
        'stored JSON in app_versions.warnings',
      ]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('works with an API token, as an app asking for updates would', async () => {
    const created = await server.request<CreatedApiToken>('POST', '/api/api_token', {
      token: viewer.token,
      body: { name: 'update prompt' },
    });
    const res = await server.request<AppVersionRow>('GET', '/api/app_versions/latest?path=shop&platform=ios', {
      headers: { authorization: `Bearer ${created.body.data.token}` },
    });
    expect(res.body.data.id).toBe(published.get('ipa')?.id);
  });

  it('tells CI whether a version and build were published already', async () => {
    expect((await exists({ appId, platform: 'android', appVersion: '2.0.0', build: '8' })).body.data).toEqual({
      exists: true,
      appVersionId: published.get('apk 2')?.id,
    });
    expect((await exists({ appId, platform: 'android', appVersion: '1.0.0' })).body.data).toEqual({
      exists: true,
      appVersionId: published.get('apk 1')?.id,
    });
    expect((await exists({ appId, platform: 'android', appVersion: '2.0.0', build: '9' })).body.data).toEqual({
      exists: false,
    });
    expect((await exists({ appId, platform: 'ios', appVersion: '2.0.0' })).body.data).toEqual({ exists: false });
    expect(
      (await exists({ appId, platform: 'ios', appVersion: '1.2.3', build: '45' }, editor.token)).body.data.exists,
    ).toBe(true);
  });

  it('hides apps the caller has no permit on, and checks its input', async () => {
    const hidden = await latest('path=shop&platform=android', outsider.token);
    expect([hidden.status, hidden.body.msg]).toEqual([404, AppMessages.appNotFound]);
    const unknown = await latest('path=nowhere&platform=android');
    expect([unknown.status, unknown.body.msg]).toEqual([404, AppMessages.appNotFound]);
    expect((await exists({ appId, platform: 'android', appVersion: '2.0.0' }, outsider.token)).status).toBe(404);
    expect((await latest('path=shop&platform=windows')).status).toBe(400);
    expect((await latest('path=../etc&platform=ios')).status).toBe(400);
    expect((await exists({ appId, platform: 'android' })).status).toBe(400);
  });
});
