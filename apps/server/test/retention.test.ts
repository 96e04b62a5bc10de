import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RETENTION_RULE,
  RETENTION_DEFAULT_PATH,
  RETENTION_PATH,
  RETENTION_PREVIEW_PATH,
  VERSION_PIN_PATH,
  type AppRetention,
  type AppVersionRow,
  type RetentionPreview,
} from '@release/contract';
import { sampleApk, sampleMacZip } from '@release/inspect/testing/sample-packages.ts';
import { RETENTION_INTERVAL_MS } from '../src/modules/retention/retention.module.ts';
import { CORRUPT_JSON_WARNING } from '../src/db/json-column.ts';
import { testDialects } from './helpers/dialects.ts';
import { grantApp, insertApp, insertItem } from './helpers/factories.ts';
import { publishPackage } from './helpers/resign-world.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const DAY = 24 * 60 * 60 * 1000;

// Issue 20: a rule per app keeps the last N builds of each platform and those newer than D days; a dry run shows what
// would go; the schedule 版本保留清理 removes it (tombstones, then the files by the removal job).
describe.each(testDialects())('retention rules on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let viewer: string;
  let appId: number;
  const android: AppVersionRow[] = [];
  let mac: AppVersionRow;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    appId = await insertApp(server.db, { app_name: '商城', path: 'shop' });
    // Six android builds ten days apart, and one mac build (its platform's newest) older than all of them.
    mac = await publishPackage(server, admin, appId, 'shop.zip', sampleMacZip({ version: '0.9', build: '9' }));
    for (const n of [1, 2, 3, 4, 5, 6]) {
      server.clock.advance(10 * DAY);
      // Signed in again: a session does not last the 60 days these builds span.
      admin = await server.adminToken();
      android.push(await publishPackage(server, admin, appId, `shop-${n}.apk`, sampleApk({ versionName: `1.${n}` })));
    }
    const editorUser = await server.createUser({ username: 'editor' });
    const viewerUser = await server.createUser({ username: 'viewer' });
    editor = editorUser.token;
    viewer = viewerUser.token;
    await grantApp(server.db, appId, editorUser.userId, 'edit');
    await grantApp(server.db, appId, viewerUser.userId, 'view');
  });
  afterAll(async () => {
    await server?.close();
  });

  const ids = (p: RetentionPreview) => p.builds.map((b) => b.id);
  const preview = (token: string, keepLast: number, keepDays: number, app = appId) =>
    server.request<RetentionPreview>(
      'GET',
      `${RETENTION_PREVIEW_PATH}?appId=${app}&keepLast=${keepLast}&keepDays=${keepDays}`,
      { token },
    );
  const listed = async () =>
    (
      await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}&pageSize=50`, { token: admin })
    ).body.data.map((v) => v.id);
  const id = (n: number) => android[n - 1]?.id as number;
  const insertSnapshotItem = (workflowId: number) =>
    insertItem(server.db, { appId, workflowId, commitId: 'snapshot-1', message: '截图', time: server.clock.now() });

  it('dry run: keeps the last N per platform and those newer than D days, the newest of each platform, 保留 and snapshot-bound builds', async () => {
    expect(
      (await server.request<AppRetention>('GET', `${RETENTION_PATH}?appId=${appId}`, { token: viewer })).body.data,
    ).toEqual({ enabled: false, keepLast: 20, keepDays: 30, quotaMb: 0, isDefault: true });
    const shown = (await preview(editor, 2, 0)).body.data;
    // android 1–4 go; 5 and 6 are the last two; the lone mac build is its platform's newest.
    expect(ids(shown)).toEqual([id(1), id(2), id(3), id(4)]);
    expect(shown.freedBytes).toBe(android.slice(0, 4).reduce((sum, v) => sum + v.appSize, 0));
    expect(shown.kept).toBe(3);
    // 25 days keeps android 4 (20 days old) and 5, 6 as well.
    expect(ids((await preview(editor, 1, 25)).body.data)).toEqual([id(1), id(2), id(3)]);

    // 保留 on android 1, and android 2 bound to a snapshot: both stay.
    expect(
      (
        await server.request('POST', VERSION_PIN_PATH, {
          token: editor,
          body: { id: id(1), appId, pinned: true },
        })
      ).status,
    ).toBe(200);
    // A snapshot (an item of a custom workflow) bound to android 2, as 关联版本 saves it.
    const workflow = await server.request<{ id: number }>('POST', '/api/workflow', {
      token: admin,
      body: { appId, contentType: 'custom', manageType: 'other', tabName: '测试记录' },
    });
    const logId = await insertSnapshotItem(workflow.body.data.id);
    await server.db
      .insertInto('commit_log_versions')
      .values({ commit_log_id: logId, app_version_id: id(2) })
      .execute();
    expect(ids((await preview(editor, 2, 0)).body.data)).toEqual([id(3), id(4)]);
    // Nothing was removed by looking.
    expect(await listed()).toHaveLength(7);
  });

  it('refuses viewers the dry run, the rule and 保留; outsiders see no app', async () => {
    expect((await preview(viewer, 2, 0)).body.code).toBe(10028);
    expect(
      (
        await server.request('POST', RETENTION_PATH, {
          token: viewer,
          body: { appId, enabled: true, keepLast: 1, keepDays: 0 },
        })
      ).body.code,
    ).toBe(10028);
    expect(
      (await server.request('POST', VERSION_PIN_PATH, { token: viewer, body: { id: id(3), appId, pinned: true } })).body
        .code,
    ).toBe(10028);
    const outsider = (await server.createUser({ username: 'outsider' })).token;
    expect((await preview(outsider, 2, 0)).body.code).toBe(404);
    expect((await preview(editor, 0, 0)).body.code).toBe(400);
  });

  it('the schedule 版本保留清理 applies the saved rule: the dry run’s builds leave the list and their files go', async () => {
    const saved = await server.request<AppRetention>('POST', RETENTION_PATH, {
      token: editor,
      body: { appId, enabled: true, keepLast: 2, keepDays: 0 },
    });
    expect(saved.body.data).toEqual({ enabled: true, keepLast: 2, keepDays: 0, quotaMb: 0, isDefault: false });
    const going = ids((await preview(editor, 2, 0)).body.data);
    expect(going).toEqual([id(3), id(4)]);
    const files = await server.db.selectFrom('app_versions').select('file_key').where('id', 'in', going).execute();

    // The schedule's first run comes one interval after it was set up.
    const schedules = server.built.core.scheduler;
    expect(await schedules.runDue()).toBe(0);
    server.clock.advance(RETENTION_INTERVAL_MS + 1);
    expect(await schedules.runDue()).toBeGreaterThanOrEqual(1);
    expect(await listed()).toEqual([id(6), id(5), id(2), id(1), mac.id]);
    await server.built.core.jobs.runDue();
    for (const { file_key } of files) expect(await server.blobs.stat(file_key)).toBeNull();
    const run = await server.db
      .selectFrom('job_schedule_runs')
      .selectAll()
      .where('name', '=', 'retention')
      .executeTakeFirst();
    expect(run).toMatchObject({ error: null });
  });

  it('an app without a rule follows the default for new apps, which only admins set', async () => {
    const fresh = await insertApp(server.db, { app_name: '地图', path: 'maps' });
    const builds = [];
    for (const n of [1, 2, 3]) {
      server.clock.advance(DAY);
      builds.push(await publishPackage(server, admin, fresh, `maps-${n}.apk`, sampleApk({ versionName: `2.${n}` })));
    }
    const rule = { enabled: true, keepLast: 1, keepDays: 0, quotaMb: 0 };
    expect((await server.request('POST', RETENTION_DEFAULT_PATH, { token: editor, body: rule })).status).toBe(403);
    expect((await server.request('POST', RETENTION_DEFAULT_PATH, { token: admin, body: rule })).body.code).toBe(200);
    expect(
      (await server.request<AppRetention>('GET', `${RETENTION_PATH}?appId=${fresh}`, { token: admin })).body.data,
    ).toEqual({ ...rule, isDefault: true });
    await server.built.modules.retention.applyAll();
    const left = await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${fresh}`, { token: admin });
    expect(left.body.data.map((v) => v.id)).toEqual([builds[2]?.id]);
  });

  it('a damaged stored default reads as the built-in one, with one warning naming it', async () => {
    const fresh = await insertApp(server.db, { app_name: '残缺默认', path: 'broken-default' });
    // Each database its own text: a warning is given once per column and text.
    await server.db
      .updateTable('settings')
      .set({ value: `{"enabled": true, "keepLast": "${dialect}"` })
      .where('key', '=', 'retention_default')
      .execute();
    const warnings: Error[] = [];
    const onWarning = (warning: Error & { code?: string }) => {
      if (warning.code === CORRUPT_JSON_WARNING) warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const rule = await server.request<AppRetention>('GET', `${RETENTION_PATH}?appId=${fresh}`, { token: admin });
      expect(rule.body.data).toEqual({ ...DEFAULT_RETENTION_RULE, isDefault: true });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toEqual([
        expect.stringContaining('stored JSON in settings.retention_default is unreadable'),
      ]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('over the app’s quota the dry run and the schedule remove expired-profile builds first, then the oldest', async () => {
    const quotaApp = await insertApp(server.db, { app_name: '游戏', path: 'game' });
    admin = await server.adminToken();
    const made: AppVersionRow[] = [];
    for (const n of [1, 2, 3, 4]) {
      server.clock.advance(DAY);
      made.push(await publishPackage(server, admin, quotaApp, `game-${n}.apk`, sampleApk({ versionName: `3.${n}` })));
    }
    // 1 MiB each; build 3's profile expired yesterday.
    const MB = 1024 * 1024;
    await server.db.updateTable('app_versions').set({ app_size: MB }).where('app_id', '=', quotaApp).execute();
    await server.db
      .updateTable('app_versions')
      .set({ expire_date: server.clock.now() - DAY })
      .where('id', '=', made[2]?.id ?? 0)
      .execute();
    const quotaPreview = async (quotaMb: number) =>
      (
        await server.request<RetentionPreview>(
          'GET',
          `${RETENTION_PREVIEW_PATH}?appId=${quotaApp}&keepLast=100&keepDays=0&quotaMb=${quotaMb}`,
          { token: admin },
        )
      ).body.data;
    const twoMb = await quotaPreview(2);
    expect(twoMb.builds.map((b) => [b.id, b.reason, b.expired])).toEqual([
      [made[0]?.id, 'quota', false],
      [made[2]?.id, 'quota', true],
    ]);
    expect(twoMb.freedBytes).toBe(2 * MB);
    // However small, the newest stays.
    expect((await quotaPreview(1)).builds.map((b) => b.id)).toEqual([made[0]?.id, made[1]?.id, made[2]?.id]);
    expect((await quotaPreview(0)).builds).toEqual([]);

    const saved = await server.request<AppRetention>('POST', RETENTION_PATH, {
      token: admin,
      body: { appId: quotaApp, enabled: true, keepLast: 100, keepDays: 0, quotaMb: 3 },
    });
    expect(saved.body.data).toEqual({ enabled: true, keepLast: 100, keepDays: 0, quotaMb: 3, isDefault: false });
    await server.built.modules.retention.applyAll();
    const left = await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${quotaApp}`, { token: admin });
    expect(left.body.data.map((v) => v.id)).toEqual([made[3]?.id, made[1]?.id, made[0]?.id]);
  });
});
