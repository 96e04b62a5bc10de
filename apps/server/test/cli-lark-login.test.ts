import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from './helpers/dialects.ts';
import { approve, startSignInWorld, visit, type SignInWorld } from './helpers/sign-in-fakes.ts';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/cli/bin/release-cli.mjs');

/** `release-cli login --lark --no-browser` in a child process, exposing the authorize URL it prints. */
function startLarkLogin(env: Record<string, string>) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [CLI, 'login', '--lark', '--no-browser', '--json'],
    { env: { PATH: process.env.PATH ?? '', NO_PROXY: '127.0.0.1', ...env } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const authorizeUrl = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/open-apis\/authen\/v1\/authorize\?\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('close', () => reject(new Error(`the CLI ended before printing a URL:\n${stderr}`)));
  });
  const finished = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { authorizeUrl, finished };
}

/** What /callback/feishu does for a terminal_login state: hand the query to the CLI's loopback listener. */
async function handToTerminal(landing: URL): Promise<{ status: number; text: string }> {
  const port = /^terminal_login\.(\d+)\./.exec(landing.searchParams.get('state') ?? '')?.[1];
  if (!port) throw new Error(`not a terminal state: ${landing.search}`);
  const response = await fetch(`http://127.0.0.1:${port}/callback${landing.search}`);
  return { status: response.status, text: await response.text() };
}

describe.each(testDialects())('release-cli login --lark against the Lark fake on %s', (dialect) => {
  let world: SignInWorld;
  let home: string;
  beforeAll(async () => {
    world = await startSignInWorld(dialect);
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'release-cli-lark-'));
    return () => fs.rmSync(home, { recursive: true, force: true });
  });

  it('signs the terminal in once the browser approves, and stores a working session', async () => {
    const user = world.lark.addUser({ name: '命令行用户' });
    const run = startLarkLogin({ HOME: home, RELEASE_SERVER: world.server.url });
    const url = await run.authorizeUrl;
    expect(new URL(url).searchParams.get('state')).toMatch(/^terminal_login\.\d+\./);
    world.lark.setNextLogin({ openId: user.openId });
    const back = await approve(url);
    expect(`${back.landing.origin}${back.landing.pathname}`).toBe(`${world.server.url}/callback/feishu`);
    const page = await handToTerminal(back.landing);
    expect(page.text).toContain('已把飞书授权交给命令行');
    const done = await run.finished;
    expect([done.code, done.stderr]).toEqual([0, expect.stringContaining('，用户 命令行用户；')]);
    expect(JSON.parse(done.stdout)).toMatchObject({ ok: true, server: world.server.url, username: '命令行用户' });
    const stored = JSON.parse(fs.readFileSync(path.join(home, '.config/release-cli/config.json'), 'utf8')) as {
      server: string;
      token: string;
    };
    const me = await world.server.request<{ username: string }>('GET', '/api/user/me', { token: stored.token });
    expect(me.body.data.username).toBe('命令行用户');
  });

  it('ignores a callback with another state and stops when the user declines', async () => {
    const run = startLarkLogin({ HOME: home, RELEASE_SERVER: world.server.url });
    const url = await run.authorizeUrl;
    world.lark.setNextLogin({ deny: true });
    const back = await visit(url);
    const landing = back.location ?? new URL('http://invalid');
    expect(landing.searchParams.get('error')).toBe('access_denied');
    const port = /^terminal_login\.(\d+)\./.exec(landing.searchParams.get('state') ?? '')?.[1];
    const forged = await fetch(`http://127.0.0.1:${port}/callback?code=stolen&state=terminal_login.${port}.forged`);
    expect(await forged.text()).toContain('这不是本次命令行登录的请求');
    expect((await handToTerminal(landing)).text).toContain('你已取消飞书授权');
    const done = await run.finished;
    expect(done.code).toBe(3);
    expect(done.stderr).toMatch(/\nrelease-cli: 飞书登录被拒绝\n$/);
    expect(fs.existsSync(path.join(home, '.config/release-cli/config.json'))).toBe(false);
  });
});
