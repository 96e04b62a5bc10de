import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A PostgreSQL server of this test's own, in a temporary folder on a free port: it may be stopped and restarted
 * without touching the shared server other tests use. Built from the Debian binaries (/usr/lib/postgresql/N/bin).
 * PostgreSQL refuses to run as root, so when the tests run as root (CI, the developers' machines) it runs as the
 * `postgres` user that the Debian package creates.
 */
export interface PrivatePostgres {
  url: string;
  port: number;
  /** pg_ctl stop -m fast: every connection is ended (57P01), new ones are refused until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** pg_ctl restart -m fast. */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL server binaries under ${root} (apt-get install postgresql)`);
  return path.join(root, newest, 'bin');
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-pg-'));
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  // As the postgres user when we are root; as ourselves otherwise.
  const pgRun = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  await pgRun('initdb', [
    '-D',
    dataDir,
    '--auth=trust',
    '--username=postgres',
    '--no-sync',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  const port = await freePort();
  // Loopback only, its socket in its own folder, small and quick to restart.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=40 -c shared_buffers=16MB`;
  const ctl = (action: string) =>
    pgRun('pg_ctl', [
      action,
      '-D',
      dataDir,
      '-w',
      '-t',
      '60',
      '-m',
      'fast',
      '-l',
      path.join(dir, 'log'),
      '-o',
      options,
    ]);
  await ctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: async () => void (await ctl('stop')),
    start: async () => void (await ctl('start')),
    restart: async () => void (await ctl('restart')),
    async destroy() {
      await ctl('stop').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
