import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { exited, fromSources } from './proc.ts';

/** The real server as a child process (compiled, as `npm start` runs it; from its sources with --tsx), and its JSON API. */

export const ADMIN = { username: 'admin', password: 'bench-admin-pass' };
const root = path.resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 60_000;

export interface BenchServer {
  url: string;
  pid: number;
  dataDir: string;
  /** Calls the JSON API; throws unless the envelope says 200. */
  api<T>(method: string, urlPath: string, body?: unknown): Promise<T>;
  /** Where the local blob store keeps an object. */
  objectPath(fileKey: string): string;
  stop(): Promise<void>;
}

/** What `npm start` gives the server bundle: node's options and its environment (malloc thresholds). */
async function productionOptions(): Promise<{ serverNodeArgs: string[]; serverEnv: Record<string, string> }> {
  return (await import(path.join(root, 'scripts/build-server.mjs'))) as {
    serverNodeArgs: string[];
    serverEnv: Record<string, string>;
  };
}

/** `nodeArgs` go before the script (e.g. `--cpu-prof` while investigating); `env` adds to its environment (e.g. DATABASE_URL). */
export async function startServer(
  dataDir: string,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<BenchServer> {
  fs.mkdirSync(dataDir, { recursive: true });
  const bundle = path.join(root, 'apps/server/dist/main.mjs');
  if (!fromSources && !fs.existsSync(bundle))
    throw new Error(`${bundle} is missing (start through \`npm run bench\`, which builds it)`);
  // The options `npm start` gives the bundle (scripts/build-server.mjs), unless the caller set others: run.mjs passes
  // them to bench/main.ts only, and a bench started on its own (`npx tsx bench/resign.ts`) got none, so its server
  // ran without the malloc thresholds and the young-generation cap (re-sign bench: idle 160 MiB instead of ~106).
  const production = fromSources ? { serverNodeArgs: [], serverEnv: {} } : await productionOptions();
  const startArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? production.serverNodeArgs.join(' '))
    .split(' ')
    .filter(Boolean);
  const startEnv = JSON.parse(process.env.BENCH_SERVER_ENV ?? JSON.stringify(production.serverEnv)) as Record<
    string,
    string
  >;
  const entry = fromSources
    ? ['--import', 'tsx', ...nodeArgs, path.join(root, 'apps/server/src/main.ts')]
    : [...startArgs, ...nodeArgs, bundle];
  const child: ChildProcess = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...startEnv,
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stopping = false;
  let startTimer: NodeJS.Timeout | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
      const match = /is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    startTimer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`));
    }, START_TIMEOUT_MS);
  }).finally(() => clearTimeout(startTimer));
  // A server that dies mid-run says so, with its last words, instead of leaving only ECONNREFUSED behind.
  child.once('exit', (code, signal) => {
    if (!stopping)
      process.stderr.write(
        `\nserver pid ${child.pid} exited unexpectedly (code ${code}, signal ${signal}); its last output:\n${output.slice(-4000)}\n`,
      );
  });
  let token = '';
  const api = async <T>(method: string, urlPath: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${urlPath}`, {
      method,
      headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await response.json()) as { code: number; msg: string; data: T };
    if (envelope.code !== 200) throw new Error(`${method} ${urlPath}: ${envelope.code} ${envelope.msg}`);
    return envelope.data;
  };
  const login = await api<{ token: string }>('POST', '/api/user/login', {
    username: ADMIN.username,
    password: createHash('sha256').update(ADMIN.password).digest('hex'),
  });
  token = login.token;
  return {
    url,
    pid: child.pid ?? 0,
    dataDir,
    api,
    objectPath: (fileKey) => path.join(dataDir, 'blobs', 'objects', fileKey),
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited(child, 10_000);
      }
    },
  };
}
