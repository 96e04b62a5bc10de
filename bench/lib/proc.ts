import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** Process memory and helpers to run children, from /proc (Linux). */

function statusField(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Peak resident set of a live process since it started (or since `resetPeakRss`), in bytes. */
export const peakRss = (pid: number) => statusField(pid, 'VmHWM');
export const currentRss = (pid: number) => statusField(pid, 'VmRSS');

/** Starts a new peak for VmHWM (Linux ≥ 4.0: writing 5 to clear_refs); false when not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU seconds a live process has used so far, user and system apart (/proc/<pid>/stat; clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): { user: number; system: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return null;
  }
}

/** Flushes every dirty page to disk, so one measurement does not pay for the writes of the last one. */
export function syncDisks(): void {
  spawnSync('sync', { stdio: 'ignore' });
}

/** Waits for a child to exit, killing it (and answering) after `timeoutMs`. */
export function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Runs `node <argv…>` and answers its stdout (throws with its stderr on failure). */
export async function runNode(argv: string[], timeoutMs = 300_000): Promise<string> {
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const code = await exited(child, timeoutMs);
  if (code !== 0) throw new Error(`node ${argv.join(' ')} exited with ${code}: ${err.trim().slice(-2000)}`);
  return out;
}

/**
 * How the bench runs the product: compiled, as `npm start` does (apps/server/dist/main.mjs, the inspection
 * child bundled by run.mjs), or from the sources under tsx with `--tsx` (BENCH_TSX=1), as before.
 */
export const fromSources = process.env.BENCH_TSX === '1';
