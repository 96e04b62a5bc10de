import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../../..');

export interface MainProcess {
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Whether it is still there (it has not exited, of itself or by a crash). */
  isRunning(): boolean;
  stop(): Promise<void>;
}

/** The bundle `npm start` runs. */
export const SERVER_BUNDLE = path.join(root, 'apps/server/dist/main.mjs');

let bundleReady: Promise<string[]> | null = null;

/**
 * Builds apps/server/dist (main.mjs and inspect-worker.mjs) when it is missing or older than its sources, as
 * `npm start` does (once per test process; `npm test` has built it already); answers the node options
 * `npm start` runs it with (scripts/build-server.mjs serverNodeArgs).
 */
export function ensureServerBundle(): Promise<string[]> {
  bundleReady ??= (async () => {
    const build =
      "const m = await import('./scripts/build-server.mjs'); if (m.serverIsStale()) await m.buildServer({ log: () => {} }); console.log(JSON.stringify(m.serverNodeArgs));";
    const child = spawn(process.execPath, ['--input-type=module', '-e', build], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let errors = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
    if (code !== 0) throw new Error(`building the server bundle failed: ${errors}`);
    return JSON.parse(out.trim()) as string[];
  })();
  return bundleReady;
}

export interface MainProcessOptions {
  /**
   * Run the compiled server as `npm start` does (apps/server/dist/main.mjs, built by `npm test` and by the
   * browser suite's global setup when stale) rather than the sources under tsx as `npm run dev` does: it
   * starts in about a third of the time, and it is what users run.
   */
  compiled?: boolean;
}

/** Runs the server (the sources as `npm run dev`, or the bundle as `npm start`), with `env` over the test's environment; resolves once it listens. */
export async function startMainProcess(
  env: Record<string, string | undefined>,
  options: MainProcessOptions = {},
): Promise<MainProcess> {
  const args = options.compiled
    ? [...(await ensureServerBundle()), SERVER_BUNDLE]
    : ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = output.match(/is running at (https?:\/\/[^\s]+)/);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    output: () => output,
    isRunning: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs a script of the repository (e.g. scripts/admin.mjs) to its end; answers its exit code and output. */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, [path.join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  return { code, output };
}
