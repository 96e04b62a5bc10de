import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes lock files a killed git left behind in a mirror (`config.lock`, `packed-refs.lock`, `refs/…/x.lock`).
 * git removes its locks on SIGTERM (our timeouts), but not after a crash or SIGKILL of the whole server, and a
 * stale lock would fail every later fetch. Only locks older than `olderThanMs` — longer than any git run we
 * allow — are removed, so a fetch in progress elsewhere keeps its locks.
 */
export async function clearStaleLocks(gitDir: string, olderThanMs: number, now = Date.now()): Promise<string[]> {
  const candidates: string[] = [];
  for (const name of await readdir(gitDir).catch(() => [] as string[])) {
    if (name.endsWith('.lock')) candidates.push(name);
  }
  const refs = await readdir(join(gitDir, 'refs'), { recursive: true }).catch(() => [] as string[]);
  for (const name of refs) if (name.endsWith('.lock')) candidates.push(join('refs', name));
  const removed: string[] = [];
  for (const name of candidates) {
    const path = join(gitDir, name);
    const info = await stat(path).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs > olderThanMs) {
      await rm(path, { force: true });
      removed.push(name);
    }
  }
  return removed;
}
