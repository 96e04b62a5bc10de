import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VERSION_REMOVAL_PREVIEW_PATH,
  VERSION_REMOVE_PATH,
  VersionRemovalMessages,
  type AppDetail,
  type AppVersionRow,
  type CommitLogItem,
  type VersionRemovalPreview,
  type VersionRemovalResult,
} from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { LEASE_MS } from '../src/jobs/queue.ts';
import { REMOVE_FILES_JOB } from '../src/modules/versions/version-removal.job.ts';
import { testDialects } from './helpers/dialects.ts';
import { grantApp } from './helpers/factories.ts';
import { testStore } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);

// Issue 20: an editor removes a build after a confirm that lists its files; its files go in a durable job.
describe.each(combos)('removing a version on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let closeStore: () => Promise<void>;
  let admin: string;
  let editor: string;
  let viewer: string;
  let outsider: string;
  let appId: number;
  let otherAppId: number;
  let workflowId: number;

  beforeAll(async () => {
    const chosen = await testStore(store);
    closeStore = chosen.close;
    server = await startTestServer(dialect, { blobs: chosen.blobs });
    admin = await server.adminToken();
    const editorUser = await server.createUser({ username: 'editor', roleLevel: 30 });
    const viewerUser = await server.createUser({ username: 'viewer', roleLevel: 30 });
    outsider = (await server.createUser({ username: 'outsider', roleLevel: 30 })).token;
    const newApp = async (appName: string, path: string) =>
      (
        await server.request<{ appId: number }>('POST', '/api/app', {
          token: admin,
          body: { appName, appType: 'native', password: '135790', path },
        })
      ).body.data.appId;
    appId = await newApp('商城', 'shop');
    otherAppId = await newApp('地图', 'maps');
    await grantApp(server.db, appId, editorUser.userId, 'edit');
    await grantApp(server.db, appId, viewerUser.userId, 'view');
    editor = editorUser.token;
    viewer = viewerUser.token;
    // A package workflow: each version is an item of it.
    workflowId = (
      await server.request<{ id: number }>('POST', '/api/workflow', {
        token: admin,
        body: { appId, tabName: '安装包', contentType: 'package', packageType: 'apk' },
      })
    ).body.data.id;
  });
  afterAll(async () => {
    await server?.close();
    await closeStore?.();
  });

  const publish = async (versionName: string, attachment?: string) => {
    const fileKey = await transferFile(server, admin, `商城 ${versionName}.apk`, sampleApk({ versionName }));
    const attachFileUrls = attachment
      ? [await transferFile(server, admin, attachment, Buffer.from(`说明 ${versionName}`), 'attachment')]
      : [];
    const res = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: admin,
      body: { appId, s3Url: fileKey, attachFileUrls },
    });
    expect(res.body.code).toBe(200);
    return server.db
      .selectFrom('app_versions')
      .selectAll()
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
  };
  const stored = async (key: string) => (await server.blobs.stat(key)) !== null;
  const listed = async () =>
    (await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, { token: admin })).body.data.map(
      (v) => v.appVersion,
    );
  const preview = (token: string, id: number, app = appId) =>
    server.request<VersionRemovalPreview>('GET', `${VERSION_REMOVAL_PREVIEW_PATH}?id=${id}&appId=${app}`, { token });
  const remove = (token: string, id: number, app = appId) =>
    server.request<VersionRemovalResult>('POST', VERSION_REMOVE_PATH, { token, body: { id, appId: app } });
  const items = async () =>
    (
      await server.request<{ list: CommitLogItem[] }>('GET', `/api/commit_log_list?workflowIds=${workflowId}`, {
        token: admin,
      })
    ).body.data.list;
  const removalJobs = () =>
    server.db.selectFrom('jobs').select(['id', 'status', 'payload']).where('kind', '=', REMOVE_FILES_JOB).execute();

  it('lists what goes and the space freed, removes the build at once, and a job deletes its files but keeps the app icon', async () => {
    const first = await publish('1.0.0', '发布说明.txt');
    const second = await publish('1.1.0');
    const attachment = (JSON.parse(first.attach_files) as Array<{ fileKey: string }>)[0]?.fileKey ?? '';
    const attachmentSize = Buffer.byteLength('说明 1.0.0');

    const shown = await preview(editor, Number(first.id));
    expect(shown.body.code).toBe(200);
    expect(shown.body.data.version).toMatchObject({ id: Number(first.id), appVersion: '1.0.0' });
    expect(shown.body.data.copies).toEqual([]);
    expect(shown.body.data.files.map((f) => [f.kind, f.name, f.keptBecause])).toEqual([
      ['package', first.file_name, null],
      ['icon', VersionRemovalMessages.icon, VersionRemovalMessages.keptByAppIcon],
      ['attachment', '发布说明.txt', null],
    ]);
    expect(shown.body.data.freedBytes).toBe(Number(first.app_size) + attachmentSize);
    // Its package workflow item will stay and say 已删除.
    expect(shown.body.data.items).toBe(1);

    const removed = await remove(editor, Number(first.id));
    expect(removed.body).toMatchObject({ code: 200, data: { removedIds: [Number(first.id)] } });
    // Gone from the list at once; its files stay until the job runs.
    expect(await listed()).toEqual(['1.1.0']);
    expect(await stored(first.file_key)).toBe(true);
    await server.built.core.jobs.runDue();
    expect(await stored(first.file_key)).toBe(false);
    expect(await stored(attachment)).toBe(false);
    expect(await stored(first.icon_key ?? '')).toBe(true);
    // The app's icon still loads; the other build is untouched.
    const appIcon =
      (await server.request<AppDetail>('GET', `/api/app?appId=${appId}`, { token: admin })).body.data.appIcon ?? '';
    expect((await fetch(`${server.url}${appIcon}`)).status).toBe(200);
    expect(await stored(second.file_key)).toBe(true);
    // The item that named it keeps its text and shows it removed, with nothing to download.
    const item = (await items()).find((i) => i.packageVersion?.appVersionId === Number(first.id));
    expect(item).toMatchObject({ cdnUrl: null, packageVersion: { appVersion: '1.0.0', removed: true } });
    expect(item?.commitMessage).toContain('1.0.0');
    const kept = (await items()).find((i) => i.packageVersion?.appVersionId === Number(second.id));
    expect(kept?.packageVersion?.removed).toBe(false);
    expect(kept?.cdnUrl).toBeTruthy();
    // The install page no longer offers it.
    const page = await server.request<{ versions: Array<{ id: number }> }>(
      'GET',
      `/api/app_version?url=shop&password=135790`,
    );
    expect(page.body.data.versions.map((v) => v.id)).toEqual([Number(second.id)]);
    // Asking again: it is already removed.
    expect((await remove(editor, Number(first.id))).body).toMatchObject({
      code: 404,
      msg: VersionRemovalMessages.alreadyRemoved,
    });
    expect((await preview(editor, Number(first.id))).body.msg).toBe(VersionRemovalMessages.alreadyRemoved);
  });

  it('a double click removes once: one answer succeeds, the other says it is already removed, one job', async () => {
    const version = await publish('1.2.0');
    const before = (await removalJobs()).length;
    const answers = await Promise.all([remove(editor, Number(version.id)), remove(admin, Number(version.id))]);
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 404]);
    expect(answers.find((a) => a.body.code === 404)?.body.msg).toBe(VersionRemovalMessages.alreadyRemoved);
    expect((await removalJobs()).length).toBe(before + 1);
    await server.built.core.jobs.runDue();
    expect(await stored(version.file_key)).toBe(false);
    // A build of its own icon: that goes too.
    expect(await stored(version.icon_key ?? '')).toBe(false);
  });

  it('refuses viewers, outsiders and another app’s version without removing anything', async () => {
    const version = await publish('1.3.0');
    expect((await preview(viewer, Number(version.id))).body.code).toBe(10028);
    expect((await remove(viewer, Number(version.id))).body.code).toBe(10028);
    expect((await remove(outsider, Number(version.id))).body).toMatchObject({ code: 404 });
    // The version asked under an app it is not of, by an admin.
    expect((await remove(admin, Number(version.id), otherAppId)).body).toMatchObject({
      code: 404,
      msg: VersionRemovalMessages.notFound,
    });
    expect((await remove(admin, 999_999)).body.msg).toBe(VersionRemovalMessages.notFound);
    await server.built.core.jobs.runDue();
    expect(await listed()).toContain('1.3.0');
    expect(await stored(version.file_key)).toBe(true);
  });

  it('takes the re-signed copies with it, and waits while a re-signing of it runs', async () => {
    const source = await publish('2.0.0');
    const copy = await publish('2.0.0-resigned');
    const certificate = { certificate_id: 1, certificate_name: '测试证书', user_id: 1, progress: 100, error: null };
    const now = server.clock.now();
    const resign = await server.db
      .insertInto('resign_jobs')
      .values({
        app_id: appId,
        source_version_id: Number(source.id),
        ...certificate,
        status: 'running',
        stage: 'sign',
        result_version_id: null,
        create_time: now,
        update_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await remove(editor, Number(source.id))).body).toMatchObject({
      code: 409,
      msg: VersionRemovalMessages.resigning,
    });
    await server.db
      .updateTable('resign_jobs')
      .set({ status: 'done', stage: 'done', result_version_id: Number(copy.id) })
      .where('id', '=', Number(resign.id))
      .execute();
    const shown = (await preview(editor, Number(source.id))).body.data;
    expect(shown.copies.map((c) => c.id)).toEqual([Number(copy.id)]);
    expect(shown.files.filter((f) => f.kind === 'package').map((f) => f.versionId)).toEqual([
      Number(source.id),
      Number(copy.id),
    ]);
    expect(shown.freedBytes).toBeGreaterThanOrEqual(Number(source.app_size) + Number(copy.app_size));
    expect((await remove(editor, Number(source.id))).body.data.removedIds).toEqual([
      Number(source.id),
      Number(copy.id),
    ]);
    await server.built.core.jobs.runDue();
    expect(await stored(source.file_key)).toBe(false);
    expect(await stored(copy.file_key)).toBe(false);
    expect(await listed()).not.toContain('2.0.0-resigned');
  });

  it('finishes the deletion after the process running it died: the job is taken over when its lease runs out', async () => {
    const version = await publish('3.0.0', '说明.txt');
    const attachment = (JSON.parse(version.attach_files) as Array<{ fileKey: string }>)[0]?.fileKey ?? '';
    const { jobId } = (await remove(editor, Number(version.id))).body.data;
    // Another process claims the job, deletes the package, and dies before the rest.
    const [claimed] = await server.built.core.jobs.repository.claim('dead-worker', server.clock.now(), LEASE_MS, 1);
    expect(claimed?.id).toBe(jobId);
    await server.blobs.delete(version.file_key);
    // Within its lease nobody else takes it.
    expect(await server.built.core.jobs.runDue()).toBe(0);
    expect(await stored(attachment)).toBe(true);
    server.clock.advance(LEASE_MS + 1);
    expect(await server.built.core.jobs.runDue()).toBe(1);
    expect(await stored(attachment)).toBe(false);
    expect(await stored(version.icon_key ?? '')).toBe(false);
    expect((await removalJobs()).find((j) => j.id === jobId)?.status).toBe('done');
  });
});
