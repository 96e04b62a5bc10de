import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDetail, AppVersionRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { VersionRemovalMessages } from '../src/modules/versions/version-removal.service.ts';
import type { AuthUser } from '../src/modules/auth/session.service.ts';
import { testDialects } from './helpers/dialects.ts';
import { grantApp } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

describe.each(testDialects())('removing a version and its files on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;
  let editor: AuthUser;
  let viewer: AuthUser;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    const editorUser = await server.createUser({ username: 'editor', roleLevel: 30 });
    const viewerUser = await server.createUser({ username: 'viewer', roleLevel: 30 });
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: '商城', appType: 'native', password: '135790', path: 'shop' },
      })
    ).body.data.appId;
    await grantApp(server.db, appId, editorUser.userId, 'edit');
    await grantApp(server.db, appId, viewerUser.userId, 'view');
    // A package workflow: each version is an item of it.
    await server.request('POST', '/api/workflow', {
      token: admin,
      body: { appId, tabName: '安装包', contentType: 'package', packageType: 'apk' },
    });
    const session = (token: string) => server.built.core.shared.sessions.resolve(token);
    editor = (await session(editorUser.token)) as AuthUser;
    viewer = (await session(viewerUser.token)) as AuthUser;
  });
  afterAll(async () => {
    await server?.close();
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
  const appIcon = async () =>
    (await server.db.selectFrom('apps').select('app_icon').where('id', '=', appId).executeTakeFirstOrThrow()).app_icon;
  const items = async () =>
    (
      await server.db
        .selectFrom('commit_logs')
        .select('commit_id')
        .where('app_id', '=', appId)
        .orderBy('commit_id')
        .execute()
    ).map((r) => r.commit_id);
  const listed = async () =>
    (await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, { token: admin })).body.data.map(
      (v) => v.appVersion,
    );

  it('deletes the first version’s package and attachment but keeps its icon, which the app icon still shows', async () => {
    const first = await publish('1.0.0', '发布说明.txt');
    const second = await publish('1.1.0');
    const attachment = (JSON.parse(first.attach_files) as Array<{ fileKey: string }>)[0]?.fileKey ?? '';
    expect(first.icon_key).toBeTruthy();
    expect(await appIcon()).toBe(`/api/media/${first.icon_key}`);
    expect(await items()).toEqual([`v${first.id}`, `v${second.id}`]);

    const removal = await server.built.modules.versionRemoval.removeAsEditor(editor, Number(first.id));
    expect(removal.deleted.sort()).toEqual([first.file_key, attachment].sort());
    expect(removal.kept).toEqual([first.icon_key]);
    expect(await stored(first.file_key)).toBe(false);
    expect(await stored(attachment)).toBe(false);
    expect(await stored(first.icon_key ?? '')).toBe(true);
    // The app's icon still loads (through the signed link the app page gets), and the other version is untouched.
    const shownIcon =
      (await server.request<AppDetail>('GET', `/api/app?appId=${appId}`, { token: admin })).body.data.appIcon ?? '';
    expect(shownIcon).toContain(`/api/media/${first.icon_key}?`);
    expect((await fetch(`${server.url}${shownIcon}`)).status).toBe(200);
    expect(await listed()).toEqual(['1.1.0']);
    // Its item leaves the package workflow; the other version's stays.
    expect(await items()).toEqual([`v${second.id}`]);
    expect(await stored(second.file_key)).toBe(true);
    expect(await stored(second.icon_key ?? '')).toBe(true);
  });

  it('deletes a later version’s own icon with it, and refuses viewers and unknown versions without deleting anything', async () => {
    const third = await publish('1.2.0');
    await expect(server.built.modules.versionRemoval.removeAsEditor(viewer, Number(third.id))).rejects.toMatchObject({
      status: 403,
    });
    expect(await stored(third.file_key)).toBe(true);
    expect(await listed()).toContain('1.2.0');

    const removal = await server.built.modules.versionRemoval.removeAsEditor(editor, Number(third.id));
    expect(removal.deleted.sort()).toEqual([third.file_key, third.icon_key].sort());
    expect(removal.kept).toEqual([]);
    expect(await stored(third.icon_key ?? '')).toBe(false);
    expect(await listed()).toEqual(['1.1.0']);
    await expect(server.built.modules.versionRemoval.removeAsEditor(editor, Number(third.id))).rejects.toMatchObject({
      message: VersionRemovalMessages.notFound,
    });
  });
});
