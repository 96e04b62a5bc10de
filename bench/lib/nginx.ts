import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { exited } from './proc.ts';

/** nginx as the reference file server: installed from Debian's packages when missing, run in the foreground. */

const NGINX = '/usr/sbin/nginx';

/** Answers the nginx binary, installing the Debian package if needed; a one-line reason when it can't. */
export function ensureNginx(log: (line: string) => void): { binary: string } | { reason: string } {
  if (fs.existsSync(NGINX)) return { binary: NGINX };
  if (process.getuid?.() !== 0)
    return { reason: 'nginx is not installed and installing it needs root (apt-get install nginx)' };
  log('nginx is missing: apt-get install -y nginx …');
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], {
      stdio: 'ignore',
      timeout: 240_000,
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  if (install().status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore', timeout: 240_000 });
    const retried = install();
    if (retried.status !== 0)
      return { reason: `apt-get install nginx failed (exit ${retried.status ?? retried.signal})` };
  }
  return fs.existsSync(NGINX)
    ? { binary: NGINX }
    : { reason: 'apt-get install nginx ran but /usr/sbin/nginx is missing' };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * Serves `rootDir` on a free loopback port with a minimal config: one worker, no access log, every path under
 * `tempDir`, and `sendfile` on (as Debian's nginx.conf has it) or off (nginx's own default, copying through
 * user space as Node must). Runs as the current user (as root, `user root` so workers can read the files).
 */
export async function startNginx(binary: string, rootDir: string, tempDir: string, sendfile: boolean): Promise<Nginx> {
  const port = await freePort();
  const conf = path.join(tempDir, 'nginx.conf');
  const userLine = process.getuid?.() === 0 ? 'user root;' : '';
  fs.writeFileSync(
    conf,
    `${userLine}
worker_processes 1;
pid ${tempDir}/nginx.pid;
error_log ${tempDir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  sendfile ${sendfile ? 'on' : 'off'};
  tcp_nopush ${sendfile ? 'on' : 'off'};
  default_type application/octet-stream;
  client_body_temp_path ${tempDir}/body;
  proxy_temp_path ${tempDir}/proxy;
  fastcgi_temp_path ${tempDir}/fastcgi;
  uwsgi_temp_path ${tempDir}/uwsgi;
  scgi_temp_path ${tempDir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${rootDir};
  }
}
`,
  );
  const child: ChildProcess = spawn(
    binary,
    ['-c', conf, '-p', tempDir, '-e', path.join(tempDir, 'error.log'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr.trim()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() !== undefined));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    if (attempt > 100) throw new Error(`nginx did not listen on ${port}: ${stderr.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited(child, 10_000);
      }
    },
  };
}
