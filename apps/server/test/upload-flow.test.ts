import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow } from '@release/contract';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { infoPlist, ipaEntries, xmlPlist } from '@release/inspect/testing/packages.ts';
import { DAY_MS } from '@release/inspect/testing/validity.ts';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { testDialects } from './helpers/dialects.ts';
import { testStore } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);

describe.each(combos)('publishing packages on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let admin: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let appId: number;
  let closeS3: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const storage = await testStore(store);
    closeS3 = storage.close;
    server = await startTestServer(dialect, { blobs: storage.blobs });
    admin = await server.adminToken();
    editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    appId = await server.createApp({ appName: '商城', path: 'shop', edit: [editor], view: [viewer] });
    await server.request('POST', '/api/app_collect', {
      token: viewer.token,
      body: { appIds: [appId], appCollectType: 'subscribe' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await closeS3?.();
  });

  it('an editor publishes an apk over several parts; it becomes version 1 with what the inspector read', async () => {
    // 11 MB of incompressible padding makes three 5 MB parts.
    const apk = sampleApk({ versionName: '2.0.1 [RC]', extra: { 'assets/big.bin': randomBytes(11 * 1024 * 1024) } });
    expect(Math.ceil(apk.length / (5 * 1024 * 1024))).toBe(3);
    const fileKey = await transferFile(server, editor.token, '商城 2.0.1.apk', apk);
    const res = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, description: '修复登录', s3Url: fileKey, chatEnv: 'DevTest' },
    });
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({
      indexNo: 1,
      nativePackageType: 'android',
      appVersion: '2.0.1 [RC]',
      build: '7',
      bundleId: 'com.example.shop',
      displayName: '商城',
      appSize: apk.length,
      uploadBy: 'editor',
      description: '修复登录',
    });
    expect(res.body.data.iconUrl).toMatch(/\/api\/media\/media\/.+\.png\?expires=\d+&signature=[\w-]+$/);
    const download = await fetch(res.body.data.cdnUrl);
    expect(sha(Buffer.from(await download.arrayBuffer()))).toBe(sha(apk));
    expect((await fetch(res.body.data.iconUrl ?? '')).headers.get('content-type')).toBe('image/png');
  });

  it('registering the same upload twice answers the same version', async () => {
    const expiresAt = new Date(server.clock.now() + 200 * DAY_MS);
    const fileKey = await transferFile(server, editor.token, 'demo.ipa', sampleIpa({ expiresAt }));
    const body = { appId, description: 'iOS 首发', s3Url: fileKey };
    const [first, second] = await Promise.all([
      server.request<AppVersionRow>('POST', '/api/v2/upload_app', { token: editor.token, body }),
      server.request<AppVersionRow>('POST', '/api/v2/upload_app', { token: editor.token, body }),
    ]);
    expect(first.body.data.id).toBe(second.body.data.id);
    expect(first.body.data).toMatchObject({
      indexNo: 2,
      nativePackageType: 'ios',
      appVersion: '1.2.3',
      build: '45',
      expireDate: expiresAt.getTime(),
    });
    const list = await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}&pageNo=1&pageSize=20`, {
      token: viewer.token,
    });
    expect(list.body.total).toBe(2);
    expect(list.body.data.map((v) => v.indexNo)).toEqual([2, 1]);
  });

  it('refuses an apk named .ipa, a non-package and an empty file, and keeps no version', async () => {
    const renamed = await transferFile(server, editor.token, 'fake.ipa', sampleApk());
    const wrong = await server.request('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url: renamed },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('扩展名为.ipa但内容是Android安装包');
    const text = await transferFile(server, editor.token, 'notes.apk', Buffer.from('just some text, not a zip at all'));
    expect(
      (await server.request('POST', '/api/v2/upload_app', { token: editor.token, body: { appId, s3Url: text } })).body
        .msg,
    ).toBe('不是有效的安装包');
    // Refused files are gone: registering again finds no upload.
    expect(
      (await server.request('POST', '/api/v2/upload_app', { token: editor.token, body: { appId, s3Url: renamed } }))
        .status,
    ).toBe(400);
    const empty = await server.request('POST', '/api/multi_signed_url_upload', {
      token: editor.token,
      body: { functionName: 'start', fileKey: 'x', fileSize: 0 },
    });
    expect(empty.body.msg).toContain('文件为空');
    // A name over 200 characters is refused before any upload starts, saying the limit (the web checks it on pick too).
    const named = (name: string) =>
      server.request('POST', '/api/get_signed_url', { token: editor.token, body: { appFileName: name } });
    expect([
      (await named(`${'长'.repeat(196)}.apk`)).status,
      (await named(`${'长'.repeat(197)}.apk`)).body.msg,
    ]).toEqual([200, '参数错误：appFileName 文件名过长（最多 200 个字符）']);
    const list = await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, {
      token: editor.token,
    });
    expect(list.body.total).toBe(2);
  });

  it('lets only editors publish, and never with another user’s upload', async () => {
    // A viewer may not even start an upload.
    await expect(transferFile(server, viewer.token, 'v.apk', sampleApk())).rejects.toThrow(
      'get_signed_url: 没有上传权限：需要至少一个应用的编辑权限',
    );
    const fileKey = await transferFile(server, admin, 'v.apk', sampleApk());
    const asViewer = await server.request('POST', '/api/v2/upload_app', {
      token: viewer.token,
      body: { appId, s3Url: fileKey },
    });
    expect(asViewer.status).toBe(403);
    const stolen = await server.request('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url: fileKey },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.msg).toBe('上传凭证无效或已过期，请重新上传');
  });

  it('refuses to finish with a missing part and keeps the upload resumable', async () => {
    const bytes = sampleApk({ extra: { 'assets/pad.bin': randomBytes(6 * 1024 * 1024) } });
    const keys = await server.request<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', {
      token: editor.token,
      body: { appFileName: 'resume.apk' },
    });
    const fileKey = keys.body.data.appFile.fileKey;
    const start = await server.request<{
      uploadId: string;
      partSize: number;
      uploadParamsList: Array<{ partNo: number; signedUrl: string }>;
    }>('POST', '/api/multi_signed_url_upload', {
      token: editor.token,
      body: { functionName: 'start', fileKey, fileSize: bytes.length },
    });
    const [first, second] = start.body.data.uploadParamsList;
    const put = async (p: { partNo: number; signedUrl: string }) => {
      const res = await fetch(p.signedUrl, {
        method: 'PUT',
        body: bytes.subarray((p.partNo - 1) * start.body.data.partSize, p.partNo * start.body.data.partSize),
      });
      return { partNo: p.partNo, etag: res.headers.get('etag') ?? '' };
    };
    const tag1 = await put(first!);
    const early = await server.request('POST', '/api/multi_signed_url_upload', {
      token: editor.token,
      body: { functionName: 'finish', fileKey, uploadId: start.body.data.uploadId, tags: [tag1] },
    });
    expect(early.status).toBe(400);
    expect(early.body.msg).toContain('文件未上传完整');
    const tag2 = await put(second!);
    const done = await server.request('POST', '/api/multi_signed_url_upload', {
      token: editor.token,
      body: { functionName: 'finish', fileKey, uploadId: start.body.data.uploadId, tags: [tag1, tag2] },
    });
    expect(done.body.code).toBe(200);
  });

  it('keeps a package whose icon cannot be read, with a placeholder icon and the reason', async () => {
    const noIcon = buildZip(ipaEntries('Plain', xmlPlist(infoPlist({ CFBundleIdentifier: 'com.example.demo' }))));
    const fileKey = await transferFile(server, editor.token, 'plain.ipa', noIcon);
    const res = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url: fileKey },
    });
    expect(res.body.data).toMatchObject({ indexNo: 3, bundleId: 'com.example.demo' });
    expect(res.body.data.warnings.length).toBeGreaterThan(0);
    const icon = await fetch(res.body.data.iconUrl ?? '');
    expect(icon.headers.get('content-type')).toBe('image/png');
  });

  it('publishes a web zip as a web version', async () => {
    const site = buildZip([
      { name: 'dist/index.html', data: '<!doctype html><title>活动页</title>' },
      { name: 'dist/app.js', data: 'console.log(1)' },
    ]);
    const fileKey = await transferFile(server, editor.token, 'site.zip', site);
    const res = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url: fileKey },
    });
    expect(res.body.data).toMatchObject({ indexNo: 4, nativePackageType: 'web', fileName: 'site.zip' });
    expect(res.body.data.metadata).toMatchObject({ kind: 'zip', indexHtmlPath: 'dist/index.html', fileCount: 2 });
  });

  it('tells subscribers about a new version in their bell', async () => {
    const messages = await server.request<Array<{ appId: number; messageInfo: { username: string; appName: string } }>>(
      'GET',
      '/api/messages?state=NOT_READ',
      { token: viewer.token },
    );
    expect(messages.body.total).toBe(4);
    expect(messages.body.data[0]).toMatchObject({ appId, messageInfo: { username: 'editor', appName: '商城' } });
    const apps = await server.request<Array<{ appId: number; unreadMessage: number }>>('GET', '/api/apps', {
      token: viewer.token,
    });
    expect(apps.body.data.find((a) => a.appId === appId)?.unreadMessage).toBe(4);
  });
});
