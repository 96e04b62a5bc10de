import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { dropPostgresSchema } from '../src/db/database.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { runProcess } from './helpers/subprocess.ts';

const root = path.resolve(import.meta.dirname, '../../..');
/** No npm, no node, no compiler: the packaged server must bring what it runs on. */
const BARE_PATH = '/nonexistent-bin';

interface Packaged {
  dir: string;
  tarball: string;
}

/**
 * `npm run package` (issue 22): the tarball is extracted into an empty folder and started with a PATH that has no
 * npm or node; the server answers, serves the console, signs in its first admin, and publishes a package sent by
 * the release-cli it serves, run with the packaged runtime (inspection worker, sharp and the CLI bundle included).
 */
describe('the self-contained package', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'release-package-'));
  let extracted = '';

  beforeAll(async () => {
    const { buildPackage } = (await import(path.join(root, 'scripts/package.mjs'))) as {
      buildPackage(options: { out: string; log(line: string): void }): Promise<Packaged>;
    };
    const built = await buildPackage({ out: path.join(work, 'out'), log: () => {} });
    const target = path.join(work, 'installed');
    fs.mkdirSync(target);
    const untar = await runProcess('tar', ['-xzf', built.tarball, '-C', target], { cwd: work });
    expect(untar.code).toBe(0);
    // What is shipped, not what was built: the build output is removed before the package runs.
    fs.rmSync(path.join(work, 'out'), { recursive: true, force: true });
    extracted = path.join(target, path.basename(built.dir));
  }, 300_000);

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('holds the runtime, the built server and console, and the launchers', () => {
    for (const file of [
      'node/bin/node',
      'bin/release-system',
      'bin/release-admin',
      'apps/server/dist/main.mjs',
      'apps/server/dist/inspect-worker.mjs',
      'apps/server/dist/admin.mjs',
      'apps/server/dist/release-cli.mjs',
      'apps/web/dist/index.html',
      'node_modules/fastify/package.json',
      'node_modules/sharp/package.json',
    ])
      expect(fs.existsSync(path.join(extracted, file)), file).toBe(true);
    // Development tools stay out.
    for (const dev of ['vitest', 'typescript', 'esbuild', 'tsx', '@biomejs'])
      expect(fs.existsSync(path.join(extracted, 'node_modules', dev)), dev).toBe(false);
  });

  it('release-admin lists the operator commands without npm', async () => {
    const listed = await runProcess(path.join(extracted, 'bin/release-admin'), [], {
      cwd: work,
      env: { PATH: BARE_PATH, HOME: work },
    });
    expect([listed.code, listed.stdout + listed.stderr]).toEqual([0, expect.stringContaining('backup')]);
  });

  for (const dialect of testDialects()) {
    it(`starts without npm on ${dialect} and publishes what the served CLI uploads`, { timeout: 180_000 }, async () => {
      const dataDir = path.join(work, `data-${dialect}`);
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const server = await startPackaged(extracted, {
        PATH: BARE_PATH,
        HOME: work,
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD: 'packaged-admin-pass',
        ...(dialect === 'postgres'
          ? { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: schema, SECRET_KEY: randomBytes(32).toString('hex') }
          : {}),
      });
      try {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        expect(await (await fetch(`${server.url}/`)).text()).toContain('<div id="root">');
        // The launcher's memory settings (serverEnv: glibc's arenas and thresholds) reach the process it execs.
        const { serverEnv } = (await import(path.join(root, 'scripts/build-server.mjs'))) as {
          serverEnv: Record<string, string>;
        };
        const environ = fs.readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
        expect(environ).toEqual(
          expect.arrayContaining(Object.entries(serverEnv).map(([name, value]) => `${name}=${value}`)),
        );
        expect(Object.keys(serverEnv)).toContain('MALLOC_MMAP_THRESHOLD_');

        const api = async <T>(method: string, route: string, body?: unknown, token?: string) => {
          const res = await fetch(`${server.url}${route}`, {
            method,
            headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const answer = (await res.json()) as { code: number; msg: string; data: T };
          expect(answer.code, `${method} ${route}: ${answer.msg}`).toBe(200);
          return answer.data;
        };
        const { token } = await api<{ token: string }>('POST', '/api/user/login', {
          username: 'admin',
          password: sha256Hex('packaged-admin-pass'),
        });
        await api('POST', '/api/app', { appName: '商城', appType: 'native', password: '135790', path: 'shop' }, token);
        const ci = await api<{ token: string }>('POST', '/api/api_token', { name: 'ci' }, token);

        const cli = await (await fetch(`${server.url}/cli/release-cli.mjs`)).text();
        fs.writeFileSync(path.join(work, 'release-cli.mjs'), cli);
        fs.writeFileSync(path.join(work, 'app.apk'), sampleApk({ versionName: '7.1.0', versionCode: 710 }));
        const upload = await runProcess(
          path.join(extracted, 'node/bin/node'),
          ['release-cli.mjs', 'upload', 'app.apk', '--app', 'shop', '--json'],
          { cwd: work, env: { PATH: BARE_PATH, HOME: work, RELEASE_SERVER: server.url, RELEASE_TOKEN: ci.token } },
        );
        expect([upload.code, upload.stderr]).toEqual([0, expect.stringContaining('app.apk: 100%')]);
        expect(JSON.parse(upload.stdout)).toMatchObject({
          ok: true,
          version: { appVersion: '7.1.0', build: '710', uploadBy: 'admin' },
        });
        expect(server.isRunning()).toBe(true);
      } finally {
        await server.stop();
        if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
      }
    });
  }
});

interface PackagedServer {
  url: string;
  pid: number;
  isRunning(): boolean;
  stop(): Promise<void>;
}

/** bin/release-system with exactly `env` (nothing inherited from the test runner); resolves once it listens. */
async function startPackaged(dir: string, env: Record<string, string>): Promise<PackagedServer> {
  const child: ChildProcess = spawn(path.join(dir, 'bin/release-system'), [], {
    cwd: dir,
    env: { NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = output.match(/is running at (http:\/\/[^\s]+)/);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the packaged server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    pid: child.pid as number,
    isRunning: () => child.exitCode === null && child.signalCode === null,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
