import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { TestServer } from './test-app.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

/**
 * Builds apps/server/dist (main.mjs and inspect-worker.mjs) when it is missing or older than its sources, as
 * `npm start` does; answers the node options `npm start` runs it with.
 */
export async function ensureServerBundle(): Promise<string[]> {
  const build = "const m = await import('./scripts/build-server.mjs'); if (m.serverIsStale()) await m.buildServer({ log: () => {} }); console.log(JSON.stringify(m.serverNodeArgs));";
  const child = spawn(process.execPath, ['--input-type=module', '-e', build], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  if (code !== 0) throw new Error(`building the server bundle failed: ${errors}`);
  return JSON.parse(out.trim()) as string[];
}

export interface CompiledServer {
  url: string;
  stop(): Promise<void>;
}

/** Runs the compiled server as `npm start` does (`node <serverNodeArgs> apps/server/dist/main.mjs`), with `env` over the test's. */
export async function startCompiledServer(env: Record<string, string | undefined>): Promise<CompiledServer> {
  const nodeArgs = await ensureServerBundle();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, path.join(root, 'apps/server/dist/main.mjs')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const match = /is running at (http:\/\/\S+)/.exec(log);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`compiled server exited with ${code}:\n${log}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `request` as TestServer has it, for a server in another process. */
export function apiOf(url: string): Pick<TestServer, 'url' | 'request'> {
  return {
    url,
    async request(method, urlPath, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.token = opts.token;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(opts.body);
      }
      const response = await fetch(`${url}${urlPath}`, { method, headers, body });
      return { status: response.status, body: JSON.parse(await response.text()) } as never;
    },
  };
}
