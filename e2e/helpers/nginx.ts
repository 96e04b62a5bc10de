import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** The public name the tests give the site; browsers and clients map it to 127.0.0.1 themselves. */
export const SITE_NAME = 'release.test';

export interface Nginx {
  /** https://release.test:<port>: what PUBLIC_URL names. */
  httpsUrl: string;
  /** http://release.test:<port>: the plain listener that sends browsers to HTTPS. */
  httpUrl: string;
  httpsPort: number;
  httpPort: number;
  /** The self-signed certificate nginx presents (PEM), for clients that verify it. */
  certificate: string;
  stop(): Promise<void>;
}

/** A free TCP port on loopback (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Debian's nginx running docs/deploy/nginx.conf as shipped, but for its addresses: the two listeners on free
 * loopback ports, a self-signed certificate for release.test, and the upstream pointing at `upstream`
 * (host:port of a server process, or one per process). Everything else — body size, buffering, forwarded headers — is the file's own.
 */
export async function startNginx(
  upstream: string | string[],
  options: { workerProcesses?: number; workerConnections?: number } = {},
): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-nginx-'));
  // Workers may run as nobody: they need to reach the temporary paths below.
  fs.chmodSync(dir, 0o755);
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${SITE_NAME}`,
      '-addext',
      `subjectAltName=DNS:${SITE_NAME}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const [httpsPort, httpPort] = [await freePort(), await freePort()];

  const shipped = fs.readFileSync(path.join(root, 'docs/deploy/nginx.conf'), 'utf8');
  const replace = (text: string, from: string, to: string) => {
    if (!text.includes(from)) throw new Error(`docs/deploy/nginx.conf no longer has "${from}": update this helper`);
    return text.split(from).join(to);
  };
  // Several processes (bench/scale.ts): one `server` line each, as the file's comment says.
  const servers = (Array.isArray(upstream) ? upstream : [upstream]).map((u) => `server ${u};`).join('\n    ');
  let site = replace(shipped, 'server 127.0.0.1:8080;', servers);
  site = replace(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`);
  site = replace(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`);
  site = replace(site, 'server_name release.example.com;', `server_name ${SITE_NAME};`);
  site = replace(site, '/etc/ssl/release/fullchain.pem', cert);
  site = replace(site, '/etc/ssl/release/privkey.pem', key);
  fs.writeFileSync(path.join(dir, 'site.conf'), site);

  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, temp), { mode: 0o777 });
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.chmodSync(path.join(dir, temp), 0o777);
  const main = `
daemon off;
worker_processes ${options.workerProcesses ?? 1};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${options.workerConnections ?? 512}; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), main);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForListener(
    httpsPort,
    () => child.exitCode !== null,
    () => `${output}${readLog(dir)}`,
  );
  return {
    httpsUrl: `https://${SITE_NAME}:${httpsPort}`,
    httpUrl: `http://${SITE_NAME}:${httpPort}`,
    httpsPort,
    httpPort,
    certificate: fs.readFileSync(cert, 'utf8'),
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(dir: string): string {
  const file = path.join(dir, 'error.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/** Resolves once something accepts connections on the port; fails with nginx's own words if it exited first. */
async function waitForListener(port: number, hasExited: () => boolean, said: () => string): Promise<void> {
  for (;;) {
    if (hasExited()) throw new Error(`nginx exited:\n${said()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
