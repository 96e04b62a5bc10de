import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow, CreatedApiToken } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { testStore } from './helpers/s3-server.ts';
import { curl } from './helpers/subprocess.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);
const MAX_PACKAGE_BYTES = 8 * 1024 * 1024;

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

describe.each(combos)('one-request upload (curl -F) on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let tmp: string;
  let editor: { userId: number; token: string };
  let viewer: { userId: number; token: string };
  let apiToken: string;
  let appId: number;
  let closeStore: () => Promise<void>;
  const endpoint = () => `${server.url}/api/upload_app/direct`;
  const file = (name: string, bytes: Buffer | string) => {
    const target = path.join(tmp, name);
    fs.writeFileSync(target, bytes);
    return target;
  };
  const post = async (args: string[]) => {
    const run = await curl(['-w', '\\n%{http_code}', ...args, endpoint()]);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    const status = Number(lines.pop());
    return { status, body: JSON.parse(lines.join('\n')) as Envelope<AppVersionRow> };
  };
  const versionCount = async () =>
    (await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, { token: editor.token })).body
      .total ?? -1;
  const sessions = (fileName: string) =>
    server.db.selectFrom('upload_sessions').select(['state', 'file_key']).where('file_name', '=', fileName).execute();

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-direct-'));
    const storage = await testStore(store);
    closeStore = storage.close;
    server = await startTestServer(dialect, { blobs: storage.blobs, maxPackageBytes: MAX_PACKAGE_BYTES });
    editor = await server.createUser({ username: 'ci-bot', roleLevel: 30 });
    viewer = await server.createUser({ username: 'tester', roleLevel: 20 });
    appId = await server.createApp({ appName: '商城', path: 'shop', edit: [editor], view: [viewer] });
    apiToken = (
      await server.request<CreatedApiToken>('POST', '/api/api_token', { token: editor.token, body: { name: 'ci' } })
    ).body.data.token;
  });
  afterAll(async () => {
    await server?.close();
    await closeStore?.();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('publishes with an API token: file, note, commit, branch and chat env in one request, answered as the version', async () => {
    const apk = file(
      'shop-3.1.0.apk',
      sampleApk({
        packageName: 'com.shop',
        versionName: '3.1.0',
        versionCode: 310,
        extra: { 'assets/pad.bin': randomBytes(6 * 1024 * 1024) },
      }),
    );
    const mediaFiles = async () =>
      Number(
        (
          await server.db
            .selectFrom('media_files')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const mediaBefore = await mediaFiles();
    const { status, body } = await post([
      '-H',
      `Authorization: Bearer ${apiToken}`,
      '-F',
      'path=shop',
      '-F',
      'note=修复登录',
      '-F',
      'commit=3f2a9c1',
      '-F',
      'branch=release/3.1',
      '-F',
      'chatEnv=DevTest',
      '-F',
      `file=@${apk}`,
    ]);
    expect([status, body.code, body.msg]).toEqual([200, 200, 'success']);
    // The app by name too: a client that sent its path needs no lookup to say where it went.
    expect(body.data).toMatchObject({
      appId,
      appName: '商城',
      nativePackageType: 'android',
      appVersion: '3.1.0',
      build: '310',
      bundleId: 'com.shop',
      description: '修复登录',
      uploadBy: 'ci-bot',
      fileName: 'shop-3.1.0.apk',
      appSize: fs.statSync(apk).size,
    });
    expect(body.data.metadata.source).toEqual({ commit: '3f2a9c1', branch: 'release/3.1' });
    // Its own icon (not the placeholder), stored once, while the package was being placed.
    expect(body.data.warnings.filter((w) => w.includes('默认图标'))).toEqual([]);
    expect((await fetch(body.data.iconUrl ?? '')).headers.get('content-type')).toBe('image/png');
    expect(await mediaFiles()).toBe(mediaBefore + 1);
    const stored = await server.db
      .selectFrom('app_versions')
      .select('chat_env')
      .where('id', '=', body.data.id)
      .executeTakeFirstOrThrow();
    expect(stored.chat_env).toBe('DevTest');
    const download = await fetch(body.data.cdnUrl);
    expect(Buffer.from(await download.arrayBuffer()).equals(fs.readFileSync(apk))).toBe(true);
    expect(await sessions('shop-3.1.0.apk')).toEqual([expect.objectContaining({ state: 'registered' })]);
  });

  it('takes the session token header, the app in the query and the note after the file', async () => {
    const apk = file('next.apk', sampleApk({ packageName: 'com.shop', versionName: '3.2.0', versionCode: 320 }));
    // Without the app before the file, the server cannot check the permit before storing: refused at once.
    const { status, body } = await post(['-H', `token: ${editor.token}`, '-F', `file=@${apk}`, '-F', 'path=shop']);
    expect([status, body.msg]).toEqual([
      400,
      '请在 file 之前给出 path（应用下载地址）或 appId，或写在地址的查询参数中',
    ]);
    const run = await curl([
      '-H',
      `token: ${editor.token}`,
      '-F',
      `file=@${apk}`,
      '-F',
      'note=说明写在文件后面',
      `${endpoint()}?appId=${appId}`,
    ]);
    const answer = JSON.parse(run.stdout) as Envelope<AppVersionRow>;
    expect(answer).toMatchObject({ code: 200, data: { appVersion: '3.2.0', description: '说明写在文件后面' } });
  });

  it('refuses without a permit, for an unknown app, without a file and for a non-package, keeping nothing', async () => {
    const before = await versionCount();
    const apk = file('refused.apk', sampleApk({ packageName: 'com.shop', versionName: '9.0.0' }));
    const viewerRun = await post(['-H', `token: ${viewer.token}`, '-F', 'path=shop', '-F', `file=@${apk}`]);
    expect([viewerRun.status, viewerRun.body.code]).toEqual([403, 10028]);
    const nowhere = await post(['-H', `token: ${editor.token}`, '-F', 'path=nowhere', '-F', `file=@${apk}`]);
    expect([nowhere.status, nowhere.body.msg]).toEqual([404, '应用不存在或您没有该应用的权限']);
    const noFile = await post(['-H', `token: ${editor.token}`, '-F', 'path=shop', '-F', 'note=x']);
    expect([noFile.status, noFile.body.msg]).toEqual([400, '缺少安装包：请用 -F file=@安装包路径 上传']);
    const anonymous = await post(['-F', 'path=shop', '-F', `file=@${apk}`]);
    expect(anonymous.status).toBe(401);
    expect(await sessions('refused.apk')).toEqual([]);

    const text = file('notes.apk', 'just some text, not a zip at all');
    const fake = await post(['-H', `token: ${editor.token}`, '-F', 'path=shop', '-F', `file=@${text}`]);
    expect([fake.status, fake.body.msg]).toEqual([400, '不是有效的安装包']);
    const [session] = await sessions('notes.apk');
    expect(session?.state).toBe('aborted');
    expect(await server.blobs.stat(session?.file_key ?? '')).toBeNull();
    expect(await versionCount()).toBe(before);
  });

  it('refuses another bundle id naming both, removes the file, and publishes it with allowOtherBundleId', async () => {
    const before = await versionCount();
    const other = file('other.apk', sampleApk({ packageName: 'com.other', versionName: '1.0.0' }));
    const refused = await post(['-H', `Authorization: Bearer ${apiToken}`, '-F', 'path=shop', '-F', `file=@${other}`]);
    expect([refused.status, refused.body.msg]).toEqual([
      409,
      '包名不一致：该应用的 Android 包名为 com.shop，此安装包为 com.other',
    ]);
    expect(refused.body.data).toMatchObject({
      reason: 'bundleIdMismatch',
      allowed: ['com.shop'],
      bundleId: 'com.other',
    });
    const [dropped] = await sessions('other.apk');
    expect(dropped?.state).toBe('aborted');
    expect(await server.blobs.stat(dropped?.file_key ?? '')).toBeNull();

    const confirmed = await post([
      '-H',
      `Authorization: Bearer ${apiToken}`,
      '-F',
      'path=shop',
      '-F',
      'allowOtherBundleId=true',
      '-F',
      `file=@${other}`,
    ]);
    expect([confirmed.status, confirmed.body.data.bundleId]).toEqual([200, 'com.other']);
    expect(await versionCount()).toBe(before + 1);
  });

  it('refuses a file over MAX_PACKAGE_MB with 413, streamed or declared, and keeps no part of it', async () => {
    const big = file('big.apk', randomBytes(MAX_PACKAGE_BYTES + 1));
    const streamed = await post([
      '-H',
      `token: ${editor.token}`,
      '-H',
      'Transfer-Encoding: chunked',
      '-F',
      'path=shop',
      '-F',
      `file=@${big}`,
    ]);
    expect([streamed.status, streamed.body.msg]).toEqual([413, '文件过大，最大支持 8 MB']);
    const [session] = await sessions('big.apk');
    expect(session?.state).toBe('aborted');
    expect(await server.blobs.stat(session?.file_key ?? '')).toBeNull();

    const huge = file('huge.apk', randomBytes(MAX_PACKAGE_BYTES + 2 * 1024 * 1024));
    const declared = await post(['-H', `token: ${editor.token}`, '-F', 'path=shop', '-F', `file=@${huge}`]);
    expect([declared.status, declared.body.msg]).toEqual([413, '文件过大，最大支持 8 MB']);
    expect(await sessions('huge.apk')).toEqual([]);
  });

  it('a client that goes away mid-file leaves no version, no object and no partial file', async () => {
    const before = await versionCount();
    const boundary = '----release-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\nshop\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="broken.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const request = http.request(endpoint(), {
      method: 'POST',
      headers: {
        token: editor.token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + 6 * 1024 * 1024 + 100),
      },
    });
    request.on('error', () => undefined);
    request.write(head);
    request.write(randomBytes(2 * 1024 * 1024));
    // The server has started storing it (its session is open) before the client goes away.
    await expect.poll(async () => (await sessions('broken.apk'))[0]?.state).toBe('issued');
    request.destroy();
    await expect.poll(async () => (await sessions('broken.apk'))[0]?.state).toBe('aborted');
    const [session] = await sessions('broken.apk');
    expect(await server.blobs.stat(session?.file_key ?? '')).toBeNull();
    if (server.blobs.kind === 'local') {
      const leftovers = fs
        .readdirSync(server.blobs.root, { recursive: true })
        .map(String)
        .filter((name) => name.includes('broken.apk'));
      expect(leftovers).toEqual([]);
    }
    expect(await versionCount()).toBe(before);
  });
});
