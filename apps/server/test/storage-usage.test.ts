import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STORAGE_ORPHANS_CHECK_PATH,
  STORAGE_ORPHANS_REMOVE_PATH,
  STORAGE_USAGE_PATH,
  VERSION_REMOVE_PATH,
  type AppVersionRow,
  type OrphanCheck,
  type OrphansRemoved,
  type StorageUsage,
} from '@release/contract';
import { sampleApk, sampleMacZip } from '@release/inspect/testing/sample-packages.ts';
import { weekStart } from '../src/modules/storage-usage/storage-usage.service.ts';
import { testDialects } from './helpers/dialects.ts';
import { grantApp, insertApp } from './helpers/factories.ts';
import { publishPackage } from './helpers/resign-world.ts';
import { testStore } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const DAY = 24 * 60 * 60 * 1000;
const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);

// Issue 20: the storage page's figures (per app and platform, largest builds, weekly growth) and the orphaned-file
// check, on local disk and S3.
describe.each(combos)('storage usage on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let closeStore: () => Promise<void>;
  let admin: string;
  let editor: string;
  let shop: number;
  let maps: number;
  const builds: AppVersionRow[] = [];

  beforeAll(async () => {
    const chosen = await testStore(store);
    closeStore = chosen.close;
    server = await startTestServer(dialect, { blobs: chosen.blobs });
    admin = await server.adminToken();
    shop = await insertApp(server.db, { app_name: '商城', path: 'shop' });
    maps = await insertApp(server.db, { app_name: '地图', path: 'maps' });
    builds.push(await publishPackage(server, admin, shop, 'shop-1.apk', sampleApk({ versionName: '1.1' })));
    // A week later: the second shop build, a mac build, and a maps build.
    server.clock.advance(7 * DAY);
    admin = await server.adminToken();
    builds.push(await publishPackage(server, admin, shop, 'shop-2.apk', sampleApk({ versionName: '1.2' })));
    builds.push(await publishPackage(server, admin, shop, 'shop.zip', sampleMacZip({ version: '1.0', build: '1' })));
    builds.push(await publishPackage(server, admin, maps, 'maps-1.apk', sampleApk({ versionName: '2.1' })));
    const editorUser = await server.createUser({ username: 'editor' });
    editor = editorUser.token;
    await grantApp(server.db, shop, editorUser.userId, 'edit');
  });
  afterAll(async () => {
    await server?.close();
    await closeStore?.();
  });

  const usage = async (token = admin) => server.request<StorageUsage>('GET', STORAGE_USAGE_PATH, { token });
  const size = (n: number) => builds[n]?.appSize ?? 0;

  it('counts the builds still there per app and per platform, lists the largest, and adds and removes per week', async () => {
    const [s1, s2, mac, m1] = [0, 1, 2, 3].map(size) as [number, number, number, number];
    const removed = await server.request('POST', VERSION_REMOVE_PATH, {
      token: admin,
      body: { id: builds[0]?.id, appId: shop },
    });
    expect(removed.body.code).toBe(200);
    const figures = (await usage()).body.data;
    expect(figures.store).toBe(store);
    expect(figures.totalBytes).toBe(s2 + mac + m1);
    expect(figures.builds).toBe(3);
    expect(figures.apps.map((a) => [a.appName, a.bytes, a.builds])).toEqual(
      [
        ['商城', s2 + mac, 2],
        ['地图', m1, 1],
      ].sort((a, b) => Number(b[1]) - Number(a[1])),
    );
    const shopApp = figures.apps.find((a) => a.appId === shop);
    expect(shopApp?.platforms).toEqual(
      expect.arrayContaining([
        { nativePackageType: 'android', bytes: s2, builds: 1 },
        { nativePackageType: 'mac', bytes: mac, builds: 1 },
      ]),
    );
    expect(figures.platforms).toEqual(
      expect.arrayContaining([
        { nativePackageType: 'android', bytes: s2 + m1, builds: 2 },
        { nativePackageType: 'mac', bytes: mac, builds: 1 },
      ]),
    );
    // Largest first; the removed build is not among them.
    expect(figures.largest.map((b) => b.id).sort()).toEqual([builds[1]?.id, builds[2]?.id, builds[3]?.id].sort());
    expect(figures.largest.map((b) => b.appSize)).toEqual([s2, mac, m1].sort((a, b) => b - a));

    // Twelve weeks, the last one now's; the first build the week before, the rest (and the removal) this week.
    expect(figures.weeks).toHaveLength(12);
    const now = server.clock.now();
    const last = figures.weeks.at(-1);
    const before = figures.weeks.at(-2);
    expect(last?.weekStart).toBe(weekStart(now));
    expect(new Date(last?.weekStart ?? 0).getUTCDay()).toBe(1);
    expect(before).toMatchObject({ addedBytes: s1, builds: 1, removedBytes: 0 });
    expect(last).toMatchObject({ addedBytes: s2 + mac + m1, builds: 3, removedBytes: s1 });
  });

  it('finds the files of the builds’ folders that nothing names, and removes only those still orphaned', async () => {
    await server.built.core.jobs.runDue();
    const put = (key: string, bytes: number) =>
      server.blobs.put(key, Buffer.alloc(bytes, 1), { contentType: 'application/octet-stream' });
    await put('packages/2026/11/lost/stray.apk', 3000);
    await put('attachments/2026/11/lost/note.txt', 20);
    // Not the builds' folders: media and task attachments have owners of their own.
    await put('media/2026/11/other.png', 10);
    await put('lark_attachment/abcdef.txt', 10);
    // An upload in progress names its key before it is a build.
    const keys = await server.request<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', {
      token: admin,
      body: { appFileName: 'coming.apk' },
    });
    const coming = keys.body.data.appFile.fileKey;
    await put(coming, 50);

    const check = await server.request<OrphanCheck>('POST', STORAGE_ORPHANS_CHECK_PATH, { token: admin });
    expect(check.body.data.files).toEqual([
      { key: 'packages/2026/11/lost/stray.apk', size: 3000 },
      { key: 'attachments/2026/11/lost/note.txt', size: 20 },
    ]);
    expect(check.body.data).toMatchObject({ count: 2, bytes: 3020 });
    expect(check.body.data.scanned).toBeGreaterThanOrEqual(9);
    // Checking removed nothing.
    expect(await server.blobs.stat('packages/2026/11/lost/stray.apk')).not.toBeNull();

    // A build's file sent along (a stale list, or a hand-made request) is checked again and skipped.
    const live = await server.db
      .selectFrom('app_versions')
      .select('file_key')
      .where('id', '=', builds[1]?.id ?? 0)
      .executeTakeFirstOrThrow();
    const removal = await server.request<OrphansRemoved>('POST', STORAGE_ORPHANS_REMOVE_PATH, {
      token: admin,
      body: { keys: ['packages/2026/11/lost/stray.apk', 'attachments/2026/11/lost/note.txt', live.file_key, coming] },
    });
    expect(removal.body.data).toEqual({ removed: 2, bytes: 3020, skipped: 2 });
    expect(await server.blobs.stat('packages/2026/11/lost/stray.apk')).toBeNull();
    expect(await server.blobs.stat('attachments/2026/11/lost/note.txt')).toBeNull();
    expect(await server.blobs.stat(live.file_key)).not.toBeNull();
    expect(await server.blobs.stat(coming)).not.toBeNull();
    expect(await server.blobs.stat('media/2026/11/other.png')).not.toBeNull();
    const again = await server.request<OrphanCheck>('POST', STORAGE_ORPHANS_CHECK_PATH, { token: admin });
    expect(again.body.data).toMatchObject({ count: 0, bytes: 0, files: [] });
  });

  it('is for admins only, and refuses a key that is no stored name', async () => {
    expect((await usage(editor)).status).toBe(403);
    expect((await server.request('POST', STORAGE_ORPHANS_CHECK_PATH, { token: editor })).status).toBe(403);
    const bad = await server.request('POST', STORAGE_ORPHANS_REMOVE_PATH, {
      token: admin,
      body: { keys: ['../etc/passwd x'] },
    });
    expect(bad.body.code).toBe(400);
    expect(bad.body.msg).toContain('文件名不正确');
  });
});
