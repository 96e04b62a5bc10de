import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow, CreatedApiToken } from '@release/contract';
import { sampleHap } from '@release/inspect/testing/hap-builder.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { type FlakyProxy, startFlakyProxy } from './helpers/flaky-proxy.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/cli/bin/release-cli.mjs');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real CLI in a child process; asynchronous, since the server answering it lives in this process. */
function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(testDialects())('release-cli against a real server on %s', (dialect) => {
  let server: TestServer;
  let proxy: FlakyProxy;
  let tmp: string;
  let editorSession: string;
  let editorToken: string;
  let viewerToken: string;
  let appId: number;
  const file = (name: string, bytes: Buffer | string) => {
    const target = path.join(tmp, name);
    fs.writeFileSync(target, bytes);
    return target;
  };
  const cli = (args: string[], token: string | null = editorToken) =>
    runCli(args, {
      HOME: path.join(tmp, 'home'),
      RELEASE_SERVER: server.url,
      ...(token ? { RELEASE_TOKEN: token } : {}),
    });
  const versionCount = async () =>
    (await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, { token: editorSession })).body
      .total ?? -1;
  const newToken = async (session: string) =>
    (await server.request<CreatedApiToken>('POST', '/api/api_token', { token: session, body: { name: 'ci' } })).body
      .data;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-cli-'));
    // Links are signed for the proxy's address (as PUBLIC_URL behind a real reverse proxy), so part uploads pass through it.
    proxy = await startFlakyProxy(() => server.url);
    server = await startTestServer(dialect, { publicUrl: proxy.url });
    const editor = await server.createUser({ username: 'ci-bot', roleLevel: 30 });
    const viewer = await server.createUser({ username: 'tester', roleLevel: 20 });
    appId = await server.createApp({ appName: '商城', path: 'shop', edit: [editor], view: [viewer] });
    editorSession = editor.token;
    editorToken = (await newToken(editor.token)).token;
    viewerToken = (await newToken(viewer.token)).token;
  });
  afterEach(() => proxy?.reset(() => null));
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('uploads a package of several parts with a note, an attachment and a robot environment', async () => {
    // 6 MB of incompressible padding makes two 5 MB parts.
    const apk = file(
      'shop-3.1.0.apk',
      sampleApk({ versionName: '3.1.0', versionCode: 310, extra: { 'assets/pad.bin': randomBytes(6 * 1024 * 1024) } }),
    );
    const notes = file('changelog.txt', '修复登录\n');
    const run = await cli([
      'upload',
      apk,
      '--app',
      'shop',
      '--note',
      '修复登录',
      '--attach',
      notes,
      '--chat-env',
      'DevTest',
      '--json',
    ]);
    expect([run.code, run.stderr]).toEqual([0, expect.stringContaining('shop-3.1.0.apk: 100%')]);
    const result = JSON.parse(run.stdout) as { ok: boolean; skipped: boolean; appId: number; version: AppVersionRow };
    expect(result).toMatchObject({
      ok: true,
      skipped: false,
      appId,
      version: {
        appVersion: '3.1.0',
        build: '310',
        nativePackageType: 'android',
        description: '修复登录',
        uploadBy: 'ci-bot',
      },
    });
    expect(result.version.appSize).toBe(fs.statSync(apk).size);
    expect(result.version.attachFiles.map((a) => a.fileName)).toEqual(['changelog.txt']);
    const stored = await server.db
      .selectFrom('app_versions')
      .select(['chat_env'])
      .where('id', '=', result.version.id)
      .executeTakeFirstOrThrow();
    expect(stored.chat_env).toBe('DevTest');
    const download = await fetch(result.version.cdnUrl);
    expect(Buffer.from(await download.arrayBuffer()).equals(fs.readFileSync(apk))).toBe(true);
  });

  it('publishes a package of one part in one request (upload_app/direct) with its note, robot environment and commit', async () => {
    const apk = file('shop-3.0.9.apk', sampleApk({ versionName: '3.0.9', versionCode: 309 }));
    proxy.reset(() => null);
    const run = await runCli(
      [
        'upload',
        apk,
        '--app',
        'shop',
        '--note',
        '小修复',
        '--chat-env',
        'DevTest',
        '--commit',
        'abc1234',
        '--branch',
        'main',
        '--json',
      ],
      { HOME: path.join(tmp, 'home'), RELEASE_SERVER: proxy.url, RELEASE_TOKEN: editorToken },
    );
    expect([run.code, run.stderr]).toEqual([
      0,
      expect.stringMatching(/shop-3\.0\.9\.apk: 100%[\s\S]*(服务器正在检查安装包|Checking the package)/),
    ]);
    // The package, its fields and the app's path in one request: no lookup, keys, parts or finish (cli-direct.test.ts).
    expect(proxy.requests).toEqual(['POST /api/upload_app/direct']);
    const { version } = JSON.parse(run.stdout) as { version: AppVersionRow };
    expect(version).toMatchObject({ appVersion: '3.0.9', build: '309', description: '小修复', uploadBy: 'ci-bot' });
    expect(version.metadata.source).toEqual({ commit: 'abc1234', branch: 'main' });
    const stored = await server.db
      .selectFrom('app_versions')
      .select(['chat_env'])
      .where('id', '=', version.id)
      .executeTakeFirstOrThrow();
    expect(stored.chat_env).toBe('DevTest');
    const download = await fetch(version.cdnUrl);
    expect(Buffer.from(await download.arrayBuffer()).equals(fs.readFileSync(apk))).toBe(true);
  });

  it('skips a version and build that are already published with --skip-existing, saying so in Chinese or English', async () => {
    const before = await versionCount();
    const again = file('again.apk', sampleApk({ versionName: '3.1.0', versionCode: 310 }));
    const skipped = await cli(['upload', again, '--app', 'shop', '--skip-existing', '--json']);
    expect([skipped.code, skipped.stderr]).toEqual([0, '商城：android 3.1.0 (310) 已发布，未上传\n']);
    expect(JSON.parse(skipped.stdout)).toMatchObject({
      ok: true,
      skipped: true,
      appId,
      platform: 'android',
      appVersion: '3.1.0',
      build: '310',
    });
    const skippedEn = await cli(['upload', again, '--app', 'shop', '--skip-existing', '--lang', 'en']);
    expect([skippedEn.code, skippedEn.stdout]).toEqual([
      0,
      '商城: android 3.1.0 (310) is already published; nothing uploaded\n',
    ]);
    expect(await versionCount()).toBe(before);

    const next = file('next.apk', sampleApk({ versionName: '3.1.0', versionCode: 311 }));
    const uploaded = await cli(['upload', next, '--app', 'shop', '--skip-existing']);
    expect([uploaded.code, uploaded.stdout]).toEqual([
      0,
      expect.stringMatching(/^服务器正在检查安装包…\n已发布 商城：android 3\.1\.0 \(311\) #\d+, /),
    ]);
    const nextEn = file('next-en.apk', sampleApk({ versionName: '3.1.0', versionCode: 312 }));
    const uploadedEn = await runCli(['upload', nextEn, '--app', 'shop'], {
      HOME: path.join(tmp, 'home'),
      RELEASE_SERVER: server.url,
      RELEASE_TOKEN: editorToken,
      RELEASE_LANG: 'en',
    });
    expect([uploadedEn.code, uploadedEn.stdout]).toEqual([
      0,
      expect.stringMatching(
        /^Checking the package on the server\.\.\.\nPublished 商城: android 3\.1\.0 \(312\) #\d+, /,
      ),
    ]);
    expect(await versionCount()).toBe(before + 2);
  });

  it('refuses a package of another bundle id with exit 5, and publishes it with --allow-other-bundle-id', async () => {
    const other = file('flavor.apk', sampleApk({ versionName: '3.2.0', packageName: 'com.example.shop.beta' }));
    const refused = await cli(['upload', other, '--app', 'shop', '--json']);
    expect([refused.code, JSON.parse(refused.stdout)]).toEqual([
      5,
      { ok: false, exitCode: 5, error: expect.stringContaining('包名不一致') },
    ]);
    const allowed = await cli(['upload', other, '--app', 'shop', '--allow-other-bundle-id', '--json']);
    expect([allowed.code, JSON.parse(allowed.stdout)]).toEqual([
      0,
      expect.objectContaining({ ok: true, version: expect.objectContaining({ appVersion: '3.2.0' }) }),
    ]);
  });

  it('publishes the modules of a HarmonyOS version together as one version; several files of other kinds are refused', async () => {
    const entry = file('entry-default-signed.hap', sampleHap({ versionName: '5.0.0', dependencies: ['lib'] }));
    const lib = file(
      'lib-default-signed.hsp',
      sampleHap({ versionName: '5.0.0', moduleName: 'lib', moduleType: 'shared' }),
    );
    const published = await cli(['upload', entry, lib, '--app', 'shop', '--json']);
    expect([published.code, published.stderr]).toEqual([0, expect.stringContaining('harmony 5.0.0 (1000001)')]);
    const { version } = JSON.parse(published.stdout) as { version: AppVersionRow };
    expect([version.fileName, (version.metadata.modules as { name: string }[]).map((m) => m.name)]).toEqual([
      'com.example.harmony-5.0.0.app',
      ['entry', 'lib'],
    ]);
    const apk = file('two.apk', sampleApk({ versionName: '5.0.1' }));
    expect(await cli(['upload', apk, entry, '--app', 'shop'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        '只能给出一个安装包文件；只有同一版本的多个 HarmonyOS 模块（.hap / .hsp）可以一起给出',
      ),
    });
  });

  it('answers the latest version, and exit 4 when a platform has none', async () => {
    const latest = await cli(['latest', '--app', 'shop', '--platform', 'android', '--json'], viewerToken);
    expect(latest.code).toBe(0);
    expect(JSON.parse(latest.stdout)).toMatchObject({ ok: true, version: { appVersion: '3.2.0' } });
    const none = await cli(['latest', '--app', 'shop', '--platform', 'ios', '--json'], viewerToken);
    expect([none.code, JSON.parse(none.stdout), none.stderr]).toEqual([
      4,
      { ok: false, exitCode: 4, error: 'shop 还没有 ios 版本' },
      'release-cli: shop 还没有 ios 版本\n',
    ]);
    const noneEn = await cli(['latest', '--lang', 'en', '--app', 'shop', '--platform', 'ios'], viewerToken);
    expect([noneEn.code, noneEn.stderr]).toEqual([4, 'release-cli: shop has no ios version yet\n']);
  });

  it('exits 3 without a token or with a revoked one', async () => {
    const apk = file('auth.apk', sampleApk());
    const missing = await cli(['upload', apk, '--app', 'shop'], null);
    expect([missing.code, missing.stderr]).toEqual([
      3,
      'release-cli: 没有令牌：请设置 RELEASE_TOKEN，或运行 release-cli login --token <token>\n',
    ]);
    const revoked = await newToken(editorSession);
    await server.request('DELETE', `/api/api_token?id=${revoked.id}`, { token: editorSession });
    const refused = await cli(['upload', apk, '--app', 'shop', '--json'], revoked.token);
    expect([refused.code, refused.stderr]).toEqual([
      3,
      expect.stringContaining('（服务器拒绝了令牌：请检查 RELEASE_TOKEN，或运行 release-cli login）'),
    ]);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      ok: false,
      exitCode: 3,
      error: expect.stringContaining('token'),
    });
  });

  it('exits 4 for an unknown app or without the edit permit, and 5 when the server refuses the package', async () => {
    const apk = file('perm.apk', sampleApk({ versionName: '9.9.9' }));
    expect((await cli(['upload', apk, '--app', 'nowhere'])).code).toBe(4);
    expect((await cli(['upload', apk, '--app', 'shop'], viewerToken)).code).toBe(4);

    const before = await versionCount();
    const fake = file('fake.apk', 'just some text, not a zip at all');
    const refused = await cli(['upload', fake, '--app', 'shop', '--json']);
    expect(refused.code).toBe(5);
    expect(JSON.parse(refused.stdout)).toEqual({ ok: false, exitCode: 5, error: '不是有效的安装包' });
    expect(await versionCount()).toBe(before);
  });

  it('retries a refused part 3 times, and exits 6 when the storage keeps refusing it', async () => {
    const apk = file(
      'flaky.apk',
      sampleApk({ versionName: '4.0.0', extra: { 'assets/pad.bin': randomBytes(6 * 1024 * 1024) } }),
    );
    // The pause before a retry (500 ms × attempt by default) shortened: the attempts are what is checked.
    const env = (url: string) => ({
      HOME: path.join(tmp, 'home'),
      RELEASE_SERVER: url,
      RELEASE_TOKEN: editorToken,
      RELEASE_RETRY_DELAY_MS: '20',
    });
    const before = await versionCount();

    proxy.reset((partNo, attempt) => (partNo === 1 && attempt <= 3 ? 503 : null));
    const recovered = await runCli(['upload', apk, '--app', 'shop'], env(proxy.url));
    expect(recovered.code).toBe(0);
    expect(proxy.partAttempts.filter((a) => a.partNo === 1).map((a) => a.status)).toEqual([503, 503, 503, 200]);
    expect(await versionCount()).toBe(before + 1);

    proxy.reset((partNo) => (partNo === 2 ? 503 : null));
    const failed = await runCli(['upload', apk, '--app', 'shop', '--json'], env(proxy.url));
    expect(failed.code).toBe(6);
    expect(JSON.parse(failed.stdout)).toEqual({ ok: false, exitCode: 6, error: '分片 2：存储返回 HTTP 503' });
    expect(proxy.partAttempts.filter((a) => a.partNo === 2)).toHaveLength(4);
    expect(await versionCount()).toBe(before + 1);
  });

  it('exits 2 on wrong usage, before calling the server, saying why in Chinese or English', async () => {
    const missing = path.join(tmp, 'missing.apk');
    expect(await cli(['upload', missing, '--app', 'shop'])).toMatchObject({
      code: 2,
      stderr: `release-cli: 文件不存在：${missing}\n`,
    });
    expect(await cli(['upload', missing, '--app', 'shop', '--lang', 'en'])).toMatchObject({
      code: 2,
      stderr: `release-cli: no such file: ${missing}\n`,
    });
    expect(await cli(['latest', '--app', 'shop', '--platform', 'windows'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        '--platform 只能是 ios、android、web、mac、harmony（收到 "windows"）\n用法：release-cli latest',
      ),
    });
    expect(await cli(['publish', '--lang', 'en'])).toMatchObject({
      code: 2,
      stderr: 'release-cli: unknown command "publish"\nUsage: release-cli --help\n',
    });
    expect(await cli(['--lang', 'fr', 'publish'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--lang / RELEASE_LANG 只能是 zh 或 en：fr'),
    });
    const apk = file('delay.apk', sampleApk({ versionName: '4.1.0' }));
    const badDelay = await runCli(['upload', apk, '--app', 'shop'], {
      HOME: path.join(tmp, 'home'),
      RELEASE_SERVER: server.url,
      RELEASE_TOKEN: editorToken,
      RELEASE_RETRY_DELAY_MS: 'soon',
    });
    expect([badDelay.code, badDelay.stderr]).toEqual([
      2,
      'release-cli: RELEASE_RETRY_DELAY_MS 必须是 0 到 60000 之间的整数毫秒：soon\n',
    ]);
  });

  it('logs in once and then works without RELEASE_TOKEN, keeping the token private', async () => {
    const login = await cli(['login', '--token', viewerToken], null);
    expect([login.code, login.stdout]).toEqual([
      0,
      expect.stringMatching(/^已登录 http:\/\/127\.0\.0\.1:\d+，用户 tester；保存在 /),
    ]);
    const config = path.join(tmp, 'home/.config/release-cli/config.json');
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toEqual({ server: server.url, token: viewerToken });
    const latest = await runCli(['latest', '--app', 'shop', '--platform', 'android'], { HOME: path.join(tmp, 'home') });
    const newest = await server.request<AppVersionRow>('GET', '/api/app_versions/latest?path=shop&platform=android', {
      token: editorSession,
    });
    expect([latest.code, latest.stdout]).toEqual([
      0,
      expect.stringContaining(
        `android ${newest.body.data.appVersion} (${newest.body.data.build}) #${newest.body.data.indexNo}`,
      ),
    ]);
    expect((await cli(['login', '--token', 'rst_not-a-real-token'], null)).code).toBe(3);
  });
});
