import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION_REMOVE_PATH, type CommitLogItem } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { insertApp, insertItem } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

// Issue 20: what still names a removed build's files is compared exactly (a `_` in a key is no wildcard), and a
// snapshot bound to a removed build keeps the binding when it is saved again.
describe.each(testDialects())('references to removed builds on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;
  let workflowId: number;
  let indexNo = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    appId = await insertApp(server.db, { app_name: '商城', path: 'shop' });
    workflowId = (
      await server.request<{ id: number }>('POST', '/api/workflow', {
        token: admin,
        body: { appId, contentType: 'custom', manageType: 'other', tabName: '测试记录' },
      })
    ).body.data.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A build row whose files are stored under the given keys. */
  const build = async (fileKey: string, extra: { iconKey?: string; attachKeys?: string[] } = {}) => {
    for (const key of [fileKey, extra.iconKey, ...(extra.attachKeys ?? [])])
      if (key) await server.blobs.put(key, Buffer.from(key), { contentType: 'application/octet-stream' });
    const now = server.clock.now();
    indexNo += 1;
    const row = await server.db
      .insertInto('app_versions')
      .values({
        app_id: appId,
        index_no: indexNo,
        native_package_type: 'android',
        file_key: fileKey,
        file_name: `shop-${indexNo}.apk`,
        app_size: fileKey.length,
        app_version: `1.${indexNo}`,
        build: String(indexNo),
        bundle_id: 'com.example.shop',
        display_name: '商城',
        icon_key: extra.iconKey ?? null,
        description: '',
        attach_files: JSON.stringify((extra.attachKeys ?? []).map((fileKey) => ({ fileKey, fileName: 'a.txt' }))),
        metadata: '{}',
        warnings: '[]',
        expire_date: null,
        chat_env: null,
        upload_by: null,
        create_time: now,
        update_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  const remove = async (id: number) => {
    const res = await server.request('POST', VERSION_REMOVE_PATH, { token: admin, body: { id, appId } });
    expect(res.body.code).toBe(200);
    await server.built.core.jobs.runDue();
  };
  const stored = async (key: string) => (await server.blobs.stat(key)) !== null;

  it('deletes a removed build’s files that another build or the app icon names only by a look-alike key', async () => {
    // The other build's attachment and the app icon differ from the removed build's keys where those hold `_`.
    const going = await build('files/pkg_1.apk', { iconKey: 'icons/ic_1.png', attachKeys: ['files/note_1.txt'] });
    await build('files/pkgx1.apk', { attachKeys: ['files/pkgA1.apk', 'files/notex1.txt'] });
    await server.db
      .updateTable('apps')
      .set({ app_icon: '/api/media/icons/xic_1.png' })
      .where('id', '=', appId)
      .execute();
    // A build that names one of the same keys exactly keeps it.
    const sharing = await build('files/own_2.apk', { attachKeys: ['files/shared_2.txt'] });
    const sharer = await build('files/own_3.apk', { attachKeys: ['files/shared_2.txt'] });
    await remove(going);
    expect(await stored('files/pkg_1.apk')).toBe(false);
    expect(await stored('files/note_1.txt')).toBe(false);
    expect(await stored('icons/ic_1.png')).toBe(false);
    // The look-alikes themselves are untouched.
    expect(await stored('files/pkgx1.apk')).toBe(true);
    expect(await stored('files/notex1.txt')).toBe(true);

    await remove(sharing);
    expect(await stored('files/own_2.apk')).toBe(false);
    expect(await stored('files/shared_2.txt')).toBe(true);
    await remove(sharer);
    expect(await stored('files/shared_2.txt')).toBe(false);
  });

  it('keeps the app icon and a snapshot’s picture when they name the key exactly', async () => {
    const going = await build('files/pkg_4.apk', { iconKey: 'icons/ic_4.png' });
    await server.db
      .updateTable('apps')
      .set({ app_icon: '/api/media/icons/ic_4.png' })
      .where('id', '=', appId)
      .execute();
    await remove(going);
    expect(await stored('files/pkg_4.apk')).toBe(false);
    expect(await stored('icons/ic_4.png')).toBe(true);
  });

  it('a snapshot bound to a removed build keeps the binding when it is saved again; a removed build cannot be newly bound', async () => {
    const kept = await build('files/pkg_5.apk');
    const gone = await build('files/pkg_6.apk');
    const other = await build('files/pkg_7.apk');
    const commitId = await insertItem(server.db, {
      appId,
      workflowId,
      commitId: 'snapshot-1',
      message: '截图',
      time: server.clock.now(),
    });
    const bind = (appVersionIds: number[]) =>
      server.request('POST', '/api/app_version/bind_commit', { token: admin, body: { commitId, appVersionIds } });
    const bound = async () => {
      const list = (
        await server.request<{ list: CommitLogItem[] }>('GET', `/api/commit_log_list?workflowIds=${workflowId}`, {
          token: admin,
        })
      ).body.data.list;
      return list
        .find((i) => i.id === commitId)
        ?.bindVersions.apk.map((v) => [v.appVersionId, v.removed ?? false])
        .sort((a, b) => Number(a[0]) - Number(b[0]));
    };
    expect((await bind([kept, gone])).body.code).toBe(200);
    await remove(gone);
    expect(await bound()).toEqual([
      [kept, false],
      [gone, true],
    ]);
    // The drawer sends back what it was given, the removed build among them.
    expect((await bind([kept, gone])).body.code).toBe(200);
    expect(await bound()).toEqual([
      [kept, false],
      [gone, true],
    ]);
    // Leaving it out unbinds it; it cannot come back.
    expect((await bind([kept])).body.code).toBe(200);
    expect((await bind([kept, gone])).body.code).toBe(400);
    expect((await bind([kept, other])).body.code).toBe(200);
    expect(await bound()).toEqual([
      [kept, false],
      [other, false],
    ]);
  });
});
