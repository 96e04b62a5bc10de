import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { placeholderIcon } from '../src/lib/placeholder-icon.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const MB = 1024 * 1024;
const NO_PERMIT = '没有上传权限：需要至少一个应用的编辑权限';
const PNG = await placeholderIcon('Q');

describe.each(testDialects())('who may upload, and how much may wait unfinished, on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let outsider: { userId: number; token: string };
  let appId: number;
  let otherAppId: number;

  const issue = (token: string, body: Record<string, unknown>) =>
    server.request<{ appFile: { fileKey: string } | null; attachFiles: Array<{ fileKey: string }> }>(
      'POST',
      '/api/get_signed_url',
      { token, body },
    );
  const start = (token: string, fileKey: string, fileSize: number) =>
    server.request<{ uploadId: string }>('POST', '/api/multi_signed_url_upload', {
      token,
      body: { functionName: 'start', fileKey, fileSize },
    });

  beforeAll(async () => {
    server = await startTestServer(dialect, { uploadQuota: { maxFiles: 3, maxBytes: 20 * MB } });
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 30 });
    outsider = await server.createUser({ username: 'outsider', roleLevel: 30 });
    const app = (path: string, distributeUsers: unknown[]) =>
      server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: path, appType: 'native', password: '135790', path, distributeUsers },
      });
    appId = (
      await app('quota', [
        { userId: editor.userId, permit: 'edit' },
        { userId: viewer.userId, permit: 'view' },
      ])
    ).body.data.appId;
    otherAppId = (await app('other', [])).body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses to start any upload for a user without an edit permit on some app, and a package for an app the user may not edit', async () => {
    for (const user of [outsider, viewer]) {
      for (const body of [{ appFileName: 'a.apk' }, { attachFileNames: ['b.txt'], scene: 'lark_attachment' }]) {
        const res = await issue(user.token, body);
        expect([res.status, res.body.msg]).toEqual([403, NO_PERMIT]);
      }
    }
    // Icons and snapshot media too.
    for (const user of [outsider, viewer]) {
      const form = new FormData();
      form.append('type', 'media');
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'shot.png');
      const res = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { token: user.token },
        body: form,
      });
      expect([res.status, ((await res.json()) as { msg: string }).msg]).toEqual([403, NO_PERMIT]);
    }
    // Named target app: the permit on that app decides.
    expect((await issue(viewer.token, { appFileName: 'a.apk', appId })).status).toBe(403);
    expect((await issue(editor.token, { appFileName: 'a.apk', appId: otherAppId })).body.msg).toBe(
      '应用不存在或您没有该应用的权限',
    );
    expect((await issue(editor.token, { appFileName: 'a.apk', appId })).status).toBe(200);
    expect((await issue(admin, { appFileName: 'a.apk', appId: otherAppId })).status).toBe(200);
    // Nothing was issued to the refused: no upload session exists for them.
    const rows = await server.db
      .selectFrom('upload_sessions')
      .select('user_id')
      .where('user_id', 'in', [outsider.userId, viewer.userId])
      .execute();
    expect(rows).toEqual([]);
  });

  it('limits the unfinished uploads a user holds, by count and by bytes, with a message saying how to get on', async () => {
    await server.db.deleteFrom('upload_sessions').execute();
    const keys = (await issue(editor.token, { appFileName: 'big.apk', attachFileNames: ['notes.txt'], appId })).body
      .data;
    const big = keys.appFile?.fileKey ?? '';
    expect((await start(editor.token, big, 15 * MB)).status).toBe(200);
    // Starting the same upload again does not count it twice.
    expect((await start(editor.token, big, 15 * MB)).status).toBe(200);

    const tooMany = await issue(editor.token, { attachFileNames: ['x.txt', 'y.txt'], appId });
    expect([tooMany.status, tooMany.body.msg]).toEqual([
      429,
      '未完成的上传过多：你已有 2 个未完成的上传（共 15 MB），上限为 3 个、20 MB。请先完成或放弃进行中的上传，未完成的上传会在 24 小时后自动清理',
    ]);
    const third = (await issue(editor.token, { appFileName: 'third.apk', appId })).body.data.appFile?.fileKey ?? '';
    const tooBig = await start(editor.token, third, 6 * MB);
    expect([tooBig.status, tooBig.body.msg]).toEqual([
      429,
      '未完成的上传过多：你已有 2 个未完成的上传（共 15 MB），上限为 3 个、20 MB。请先完成或放弃进行中的上传，未完成的上传会在 24 小时后自动清理',
    ]);
    expect((await start(editor.token, third, 5 * MB)).status).toBe(200);
    // Another user's quota is their own.
    expect((await issue(admin, { appFileName: 'admin.apk' })).status).toBe(200);

    // A package once registered no longer counts; abandoned uploads stop counting when housekeeping removes them.
    await server.db.deleteFrom('upload_sessions').where('file_key', 'in', [big, third]).execute();
    const fileKey = await transferFile(
      server,
      editor.token,
      'real.apk',
      sampleApk({ extra: { 'assets/pad.bin': randomBytes(2 * MB) } }),
    );
    expect(
      (await server.request('POST', '/api/v2/upload_app', { token: editor.token, body: { appId, s3Url: fileKey } }))
        .body.code,
    ).toBe(200);
    expect((await issue(editor.token, { attachFileNames: ['a.txt', 'b.txt'], appId })).status).toBe(200);
    expect((await issue(editor.token, { attachFileNames: ['c.txt'], appId })).status).toBe(429);
    server.clock.advance(25 * 60 * 60 * 1000);
    await server.built.core.housekeeping.run();
    expect((await issue(editor.token, { attachFileNames: ['a.txt', 'b.txt', 'c.txt'], appId })).status).toBe(200);
  });
});
