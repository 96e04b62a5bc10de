import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

/** After SIGTERM, a command that has not ended this long later is killed outright. */
const KILL_GRACE_MS = 2000;

/**
 * Starts a command in its own process group, so a time limit ends it with every child it started (git's
 * remote helpers, ssh, svn's tunnel) rather than leaving them to hold a connection open.
 */
export function spawnGroup(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): ChildProcessWithoutNullStreams {
  return spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, windowsHide: true });
}

/** Ends the command's process group: SIGTERM, then SIGKILL if it is still there after a grace period. */
export function killGroup(child: ChildProcessWithoutNullStreams): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      child.kill(name);
    }
  };
  signal('SIGTERM');
  // Its children may outlive it: the group is killed even after the command itself is gone.
  const hard = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS);
  hard.unref();
  child.once('close', () => clearTimeout(hard));
}

export interface ChildResult {
  stdout: string;
  stderr: string;
  /** Exit code; null when killed or never started. */
  code: number | null;
  timedOut: boolean;
  /** stdout passed maxBuffer (the command was stopped). */
  overflow: boolean;
  /** It could not be started (e.g. not installed). */
  spawnError: string | null;
}

/** Runs a command to its end (or its time limit, which kills its process group) and collects its output as UTF-8. */
export function runChild(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; input?: string; timeoutMs: number; maxBuffer: number },
): Promise<ChildResult> {
  return new Promise((resolve) => {
    const child = spawnGroup(command, args, options.env);
    const out = new StringDecoder('utf8');
    const result: ChildResult = {
      stdout: '',
      stderr: '',
      code: null,
      timedOut: false,
      overflow: false,
      spawnError: null,
    };
    let size = 0;
    const timer = setTimeout(() => {
      result.timedOut = true;
      killGroup(child);
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxBuffer) {
        if (!result.overflow) killGroup(child);
        result.overflow = true;
        return;
      }
      result.stdout += out.write(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      result.stderr = (result.stderr + text).slice(-64 * 1024);
    });
    child.on('error', (error) => {
      result.spawnError = error.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      result.stdout += out.end();
      result.code = code;
      resolve(result);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
