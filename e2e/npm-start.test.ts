import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start as an operator runs it', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-npm-start-'));
  let serverPid = 0;
  let npm: ChildProcess | undefined;
  afterAll(() => {
    // Only if the test failed before stopping them: what this test started, by their own pids.
    if (npm?.exitCode === null) npm.kill('SIGTERM');
    if (serverPid && isAlive(serverPid)) process.kill(serverPid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the one-time admin password last on the console, logs no line per request, and a SIGTERM to npm alone leaves no server behind', async () => {
    const child = spawn('npm', ['start'], {
      cwd: root,
      env: {
        ...process.env,
        SKIP_WEB_BUILD: '1',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm = child;
    let output = '';
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const npmExited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

    await expect.poll(() => stdout, { timeout: 60_000 }).toMatch(/shown only once.*\n/);
    const url = /is running at (http:\/\/\S+)/.exec(output)?.[1] ?? '';
    serverPid = Number(/"pid":(\d+)[^\n]*Server listening/.exec(output)?.[1]);
    expect(serverPid).toBeGreaterThan(0);

    for (let i = 0; i < 5; i += 1) expect((await fetch(`${url}/api/system/ping`)).ok).toBe(true);
    const lines = stdout.trimEnd().split('\n');
    // Nothing has scrolled the password away: it is still the end of the console.
    expect(lines.at(-2)).toMatch(/^ {2}First admin created: admin \/ \S{16}$/);
    expect(lines.at(-1)).toBe('  (shown only once; change it in 设置 → 用户管理)');

    child.kill('SIGTERM');
    await npmExited;
    await expect.poll(() => isAlive(serverPid), { timeout: 20_000 }).toBe(false);
    await expect(fetch(`${url}/api/system/ping`)).rejects.toThrow();
    expect(output).toContain('"signal":"SIGTERM","msg":"shutting down"');
  });
});
