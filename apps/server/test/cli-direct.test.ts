import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow, CreatedApiToken } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { type FlakyProxy, startFlakyProxy } from './helpers/flaky-proxy.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const CLI = path.resolve(import.meta.dirname, '../../../packages/cli/bin/release-cli.mjs');

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

/**
 * `release-cli upload` of a package of one part (issue 23): the app named by `--app` goes in the one request as its
 * path and the server finds it, so nothing is looked up first; what the CLI prints is what it printed when it looked
 * the app up before, refusals included.
 */
describe.each(testDialects())('release-cli publishing in one request on %s', (dialect) => {
  let server: TestServer;
  let proxy: FlakyProxy;
  let tmp: string;
  let editorSession: string;
  const tokens: Record<'editor' | 'viewer' | 'outsider', string> = { editor: '', viewer: '', outsider: '' };
  let appId: number;
  const apk = (name: string, versionName: string, versionCode: number) => {
    const target = path.join(tmp, name);
    fs.writeFileSync(target, sampleApk({ versionName, versionCode }));
    return target;
  };
  const cli = (args: string[], token: string, serverUrl = proxy.url) =>
    runCli(args, { HOME: path.join(tmp, 'home'), RELEASE_SERVER: serverUrl, RELEASE_TOKEN: token });
  const versionCount = async () =>
    (await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, { token: editorSession })).body
      .total ?? -1;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-cli-direct-'));
    proxy = await startFlakyProxy(() => server.url);
    server = await startTestServer(dialect, { publicUrl: proxy.url });
    const editor = await server.createUser({ username: 'ci-bot', roleLevel: 30 });
    const viewer = await server.createUser({ username: 'tester', roleLevel: 20 });
    const outsider = await server.createUser({ username: 'other-team', roleLevel: 30 });
    appId = await server.createApp({ appName: '商城', path: 'shop', edit: [editor], view: [viewer] });
    editorSession = editor.token;
    for (const [name, user] of [
      ['editor', editor],
      ['viewer', viewer],
      ['outsider', outsider],
    ] as const)
      tokens[name] = (
        await server.request<CreatedApiToken>('POST', '/api/api_token', { token: user.token, body: { name: 'ci' } })
      ).body.data.token;
  });
  afterEach(() => proxy.reset(() => null));
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('sends the app by its path in the one request and prints the app by name, as when it looked the app up first', async () => {
    const run = await cli(['upload', apk('shop-4.0.0.apk', '4.0.0', 400), '--app', 'shop'], tokens.editor);
    expect([run.code, run.stdout]).toEqual([
      0,
      expect.stringMatching(/^服务器正在检查安装包…\n已发布 商城：android 4\.0\.0 \(400\) #\d+, /),
    ]);
    expect(proxy.requests).toEqual(['POST /api/upload_app/direct']);

    proxy.reset(() => null);
    const json = await cli(['upload', apk('shop-4.0.1.apk', '4.0.1', 401), '--app', 'shop', '--json'], tokens.editor);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as { version: AppVersionRow };
    // The result is as before: the version row alone (the answer's appName is the CLI's, not the row's).
    expect(result).toEqual({
      ok: true,
      skipped: false,
      appId,
      version: expect.objectContaining({ appVersion: '4.0.1' }),
    });
    expect(Object.keys(result.version)).not.toContain('appName');
    expect(proxy.requests).toEqual(['POST /api/upload_app/direct']);
  });

  it('says an app is not there in the words it used, for an unknown path and an app the user has no permit on', async () => {
    const before = await versionCount();
    const file = apk('nowhere.apk', '4.1.0', 410);
    const unknown = await cli(['upload', file, '--app', 'nowhere', '--json'], tokens.editor);
    expect([unknown.code, JSON.parse(unknown.stdout)]).toEqual([
      4,
      { ok: false, exitCode: 4, error: '没有路径为 "nowhere" 的应用（或令牌的用户对它没有权限）' },
    ]);
    // The refusal is explained by the lookup it no longer makes first.
    expect(proxy.requests).toEqual(['POST /api/upload_app/direct', 'GET /api/user_apps', 'GET /api/apps']);
    const hidden = await cli(['upload', file, '--app', 'shop', '--json'], tokens.outsider);
    expect([hidden.code, JSON.parse(hidden.stdout)]).toEqual([
      4,
      { ok: false, exitCode: 4, error: '没有路径为 "shop" 的应用（或令牌的用户对它没有权限）' },
    ]);
    // A view permit finds the app: the server's own refusal stands.
    const viewer = await cli(['upload', file, '--app', 'shop', '--json'], tokens.viewer);
    expect([viewer.code, JSON.parse(viewer.stdout)]).toEqual([4, { ok: false, exitCode: 4, error: '您没有权限访问' }]);
    expect(await versionCount()).toBe(before);
  });

  it('looks the app up first with --skip-existing, which asks about the version by the app id', async () => {
    const file = apk('shop-4.2.0.apk', '4.2.0', 420);
    const run = await cli(['upload', file, '--app', 'shop', '--skip-existing'], tokens.editor);
    expect([run.code, run.stdout]).toEqual([0, expect.stringMatching(/已发布 商城：android 4\.2\.0 \(420\) #\d+, /)]);
    expect(proxy.requests).toEqual([
      'GET /api/user_apps',
      'GET /api/app_versions/exists',
      'POST /api/upload_app/direct',
    ]);
  });

  it('against a server whose answer does not name the app (before issue 23), looks the app up for its name', async () => {
    // The real server's answer without appName, and its app list, as an older server gives them.
    const real = await cli(['upload', apk('shop-4.3.0.apk', '4.3.0', 430), '--app', 'shop', '--json'], tokens.editor);
    const { version } = JSON.parse(real.stdout) as { version: AppVersionRow };
    const older = http.createServer((req, res) => {
      const data =
        req.url === '/api/user_apps' ? [{ appId, appName: '商城（旧）', path: 'shop', permit: 'edit' }] : version;
      req.resume();
      req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ code: 200, msg: 'success', data })),
      );
    });
    await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
      const run = await cli(['upload', apk('shop-4.3.1.apk', '4.3.1', 431), '--app', 'shop'], tokens.editor, url);
      expect([run.code, run.stdout]).toEqual([
        0,
        expect.stringMatching(/^服务器正在检查安装包…\n已发布 商城（旧）：android 4\.3\.0 \(430\) #\d+, /),
      ]);
    } finally {
      await new Promise<void>((resolve) => older.close(() => resolve()));
    }
  });
});
