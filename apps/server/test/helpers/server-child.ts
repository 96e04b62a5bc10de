import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DialectName } from '../../src/db/database.ts';
import { dropPostgresSchema } from '../../src/db/database.ts';
import { TEST_POSTGRES_URL } from './dialects.ts';
import { ensureServerBundle, SERVER_BUNDLE } from './main-process.ts';

export interface ServerChild {
  url: string;
  pid: number;
  admin: { username: string; password: string };
  stop(): Promise<void>;
}

/**
 * The real server in its own process (the bundle and Node options `npm start` runs), on SQLite in a
 * fresh DATA_DIR or PostgreSQL in a fresh schema: for what only a separate process shows, such as its memory.
 */
export async function startServerChild(
  dialect: DialectName,
  options: { env?: Record<string, string> } = {},
): Promise<ServerChild> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-child-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = { username: 'admin', password: 'admin-child-pass' };
  const child: ChildProcess = spawn(process.execPath, [...(await ensureServerBundle()), SERVER_BUNDLE], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      ...(dialect === 'postgres'
        ? { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: schema, SECRET_KEY: randomBytes(32).toString('hex') }
        : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /is running at (https?:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    pid: child.pid ?? 0,
    admin,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
    },
  };
}

/** A process's resident memory now and its peak (VmHWM) since the last reset, in bytes (Linux /proc). */
export function processMemory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Sets a process's peak (VmHWM) back to its current resident memory (Linux ≥ 4.0: clear_refs 5). */
export function resetPeakMemory(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
