import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppDetail, AppVersionRow } from '@release/contract';
import {
  dropPostgresSchema,
  migrateToLatest,
  migrateUpTo,
  openDatabase,
  type DatabaseHandle,
} from '../src/db/database.ts';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { CORRUPT_JSON_WARNING } from '../src/db/json-column.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

describe.each(testDialects())('bundle ids per app and platform on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let appId: number;

  const detail = async () => {
    const r = await server.request<AppDetail>('GET', `/api/app?appId=${appId}`, { token: editor.token });
    if (r.body.code !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.data;
  };
  const versionCount = async () =>
    (await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, { token: editor.token })).body
      .total ?? -1;
  const publish = async (name: string, bytes: Buffer, extra: Record<string, unknown> = {}) => {
    const s3Url = await transferFile(server, editor.token, name, bytes);
    const res = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url, ...extra },
    });
    return { ...res, s3Url };
  };
  const saveIds = async (bundleIds: Record<string, string[]>) => {
    const app = await detail();
    return server.request('POST', '/api/app', {
      token: admin,
      body: {
        appId,
        appName: app.appName,
        appType: app.appType,
        password: app.password,
        path: app.path,
        description: app.description,
        distributeUsers: app.distributeUsers,
        bundleIds,
      },
    });
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    const created = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: {
        appName: '商城',
        appType: 'native',
        password: '135790',
        path: 'shop',
        distributeUsers: [{ userId: editor.userId, permit: 'edit' }],
      },
    });
    appId = created.body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the first build of each platform sets its id; a web zip has none', async () => {
    expect(await detail()).toMatchObject({ bundleId: null, bundleIds: { ios: [], android: [], mac: [] } });
    expect((await publish('shop.apk', sampleApk({ packageName: 'com.a', versionName: '1.0.0' }))).body.code).toBe(200);
    expect((await publish('site.zip', buildZip([{ name: 'index.html', data: '<title>活动</title>' }]))).body.code).toBe(
      200,
    );
    expect((await publish('shop.ipa', sampleIpa({ bundleId: 'com.a.ios' }))).body.code).toBe(200);
    // The header's main id is the iOS one once there is one.
    expect(await detail()).toMatchObject({
      bundleId: 'com.a.ios',
      bundleIds: { ios: ['com.a.ios'], android: ['com.a'], mac: [] },
    });
  });

  it('refuses a build with another id, naming both, and keeps the upload so a confirmed retry publishes it', async () => {
    const before = await versionCount();
    const iconBefore = (await detail()).appIcon;
    const refused = await publish('other.apk', sampleApk({ packageName: 'com.b', label: '别的应用' }));
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('包名不一致：该应用的 Android 包名为 com.a，此安装包为 com.b');
    expect(refused.body.data).toEqual({
      reason: 'bundleIdMismatch',
      platform: 'android',
      allowed: ['com.a'],
      bundleId: 'com.b',
    });
    const ios = await publish('other.ipa', sampleIpa({ bundleId: 'com.b.ios' }));
    expect(ios.body.msg).toBe('包名不一致：该应用的 iOS Bundle ID 为 com.a.ios，此安装包为 com.b.ios');
    expect(await versionCount()).toBe(before);

    const confirmed = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url: refused.s3Url, allowOtherBundleId: true },
    });
    expect(confirmed.body).toMatchObject({ code: 200, data: { bundleId: 'com.b', nativePackageType: 'android' } });
    expect(await versionCount()).toBe(before + 1);
    // The app keeps its own ids and icon: a confirmed build does not become the app's identity.
    expect(await detail()).toMatchObject({ appIcon: iconBefore, bundleIds: { android: ['com.a'] } });
  });

  it('accepts every id the app settings list (flavors), and refuses ids that are not ids', async () => {
    expect(
      (await saveIds({ ios: ['com.a.ios'], android: ['com.a', ' com.a.free ', 'com.a'], mac: [] })).body.code,
    ).toBe(200);
    expect((await detail()).bundleIds).toEqual({
      ios: ['com.a.ios'],
      android: ['com.a', 'com.a.free'],
      mac: [],
      harmony: [],
    });
    expect((await publish('free.apk', sampleApk({ packageName: 'com.a.free' }))).body.code).toBe(200);
    const other = await publish('pro.apk', sampleApk({ packageName: 'com.a.pro' }));
    expect(other.body.msg).toBe('包名不一致：该应用的 Android 包名为 com.a、com.a.free，此安装包为 com.a.pro');

    const bad = await saveIds({ ios: ['com a'], android: [], mac: [] });
    expect([bad.status, bad.body.msg]).toEqual([
      400,
      '参数错误：bundleIds.ios.0 包名只能包含字母、数字、点、-和_，最多255位',
    ]);
    // Saving without the field (an older client) leaves the ids alone.
    const app = await detail();
    await server.request('POST', '/api/app', {
      token: admin,
      body: {
        appId,
        appName: '商城 2',
        appType: app.appType,
        password: app.password,
        path: app.path,
        distributeUsers: app.distributeUsers,
      },
    });
    expect((await detail()).bundleIds.android).toEqual(['com.a', 'com.a.free']);
  });

  it('an emptied list is set again by the next build of that platform', async () => {
    await saveIds({ ios: ['com.a.ios'], android: [], mac: [] });
    expect((await publish('new.apk', sampleApk({ packageName: 'com.c' }))).body.code).toBe(200);
    expect((await detail()).bundleIds.android).toEqual(['com.c']);
  });

  it('two first builds of a platform at once: one sets the id, the other is refused', async () => {
    const created = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: {
        appName: '并发',
        appType: 'native',
        password: '135790',
        path: 'race',
        distributeUsers: [{ userId: editor.userId, permit: 'edit' }],
      },
    });
    const raceApp = created.body.data.appId;
    const keys = await Promise.all(
      ['x', 'y'].map((id) =>
        transferFile(server, editor.token, `${id}.apk`, sampleApk({ packageName: `com.race.${id}` })),
      ),
    );
    const answers = await Promise.all(
      keys.map((s3Url) =>
        server.request('POST', '/api/v2/upload_app', { token: editor.token, body: { appId: raceApp, s3Url } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const app = (await server.request<AppDetail>('GET', `/api/app?appId=${raceApp}`, { token: admin })).body.data;
    expect(app.bundleIds.android).toHaveLength(1);
  });

  it('damaged stored ids read as none yet, with one warning naming the column; the next build sets its id', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error & { code?: string }) => {
      if (warning.code === CORRUPT_JSON_WARNING) warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      await server.db
        .updateTable('apps')
        .set({ bundle_ids: `{"ios": ["com.${dialect}"` })
        .where('id', '=', appId)
        .execute();
      expect(await detail()).toMatchObject({ bundleId: null, bundleIds: { ios: [], android: [], mac: [] } });
      expect((await publish('again.apk', sampleApk({ packageName: 'com.d' }))).body.code).toBe(200);
      expect((await detail()).bundleIds).toMatchObject({ ios: [], android: ['com.d'], mac: [] });
      // Written back whole, in the one encoding every compare and set expects.
      const stored = await server.db.selectFrom('apps').select('bundle_ids').where('id', '=', appId).executeTakeFirst();
      expect(JSON.parse(stored?.bundle_ids ?? '')).toEqual({ ios: [], android: ['com.d'], mac: [], harmony: [] });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toEqual([
        expect.stringContaining('stored JSON in apps.bundle_ids is unreadable'),
      ]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe.each(testDialects())('existing apps take the id of each platform’s latest version on %s', (dialect) => {
  let handle: DatabaseHandle | null = null;
  afterEach(async () => {
    await handle?.destroy().catch(() => undefined);
    if (handle?.dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, handle.schema!);
    handle = null;
  });

  it('migrates apps.bundle_id into per-platform ids from the versions', async () => {
    handle = await openDatabase({
      url: dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
      schema: `t_${randomBytes(6).toString('hex')}`,
      sqliteFile: ':memory:',
    });
    await migrateUpTo(handle, '2026-11-26-024-commit-log-app-fk');
    const db = handle.db as unknown as import('kysely').Kysely<any>;
    const app = (name: string, path: string) => ({
      app_name: name,
      app_type: 'native',
      app_icon: null,
      category_id: null,
      path,
      public_path: `${path}p`,
      password: 'x',
      description: '',
      bundle_id: 'com.first',
      support_url: null,
      dev_wecom_url: null,
      prod_wecom_url: null,
      create_by: null,
      create_time: 1,
      update_time: 1,
    });
    const inserted = await db
      .insertInto('apps')
      .values([app('商城', 'shop'), app('空', 'none')])
      .returning('id')
      .execute();
    const shopId = Number(inserted[0]?.id);
    let index = 0;
    const version = (type: string, bundleId: string | null) => {
      index += 1;
      return {
        app_id: shopId,
        index_no: index,
        native_package_type: type,
        file_key: `k/${index}`,
        file_name: `${index}`,
        app_size: 1,
        app_version: null,
        build: null,
        bundle_id: bundleId,
        display_name: null,
        icon_key: null,
        description: '',
        attach_files: '[]',
        metadata: '{}',
        warnings: '[]',
        expire_date: null,
        chat_env: null,
        upload_by: null,
        create_time: index,
        update_time: index,
      };
    };
    await db
      .insertInto('app_versions')
      .values([
        version('android', 'com.first'),
        version('ios', 'com.ios.old'),
        version('android', 'com.second'),
        version('ios', 'com.ios'),
        version('web', null),
        version('mac', 'com.mac'),
      ])
      .execute();

    await migrateToLatest(handle);
    const rows = await db.selectFrom('apps').select(['id', 'bundle_ids']).orderBy('id').execute();
    // The app without versions keeps no id (its old bundle_id named no platform).
    expect(rows.map((r: { bundle_ids: string }) => JSON.parse(r.bundle_ids))).toEqual([
      { ios: ['com.ios'], android: ['com.second'], mac: ['com.mac'] },
      {},
    ]);
  });
});
