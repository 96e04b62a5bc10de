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

/** Runs apps/server/src/main.ts as `npm run dev` would, with `env` over the test's environment; resolves once it listens. */
export async function startMainProcess(env: Record<string, string | undefined>): Promise<MainProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
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
export async function runScript(script: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, [path.join(root, script), ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  return { code, output };
}
