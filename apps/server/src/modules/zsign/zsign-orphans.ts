import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { resignedKey } from './zsign.job.ts';

/** Failed runs this old are looked at again (their own removal has had its chance) … */
const SETTLED_MS = 10 * 60_000;
/** … for this long: a process that died after recording a failure is back well within it. */
const LOOK_BACK_MS = 7 * 24 * 60 * 60_000;

/**
 * Housekeeping: the stored ipa of a failed re-signing whose removal did not happen (the process died between the
 * commit of the failure and the removal, or the store refused it) is removed, unless a version uses it.
 */
export async function removeFilesOfFailedResigns(deps: {
  db: Kysely<Database>;
  blobs: BlobStore;
  clock: Clock;
}): Promise<number> {
  const now = deps.clock.now();
  const failed = await deps.db
    .selectFrom('resign_jobs')
    .select('id')
    .where('status', '=', 'failed')
    .where('update_time', '<=', now - SETTLED_MS)
    .where('update_time', '>', now - LOOK_BACK_MS)
    .execute();
  let removed = 0;
  for (const { id } of failed) {
    const key = resignedKey(Number(id));
    if (!(await deps.blobs.stat(key))) continue;
    if (await deps.db.selectFrom('app_versions').select('id').where('file_key', '=', key).executeTakeFirst()) continue;
    await deps.blobs.delete(key);
    removed += 1;
  }
  return removed;
}

/** A run's work folder older than this belongs to a process that died (a run renews its lease every 30 s). */
const WORK_DIR_STALE_MS = 24 * 60 * 60_000;

/**
 * Housekeeping: work folders (`release-resign-*`) that a re-signing left behind when its process died mid-run (a run
 * removes its own when it ends). Answers how many were removed.
 */
export async function removeStaleWorkDirs(root: string, now: number): Promise<number> {
  const names = await fsp.readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names.filter((entry) => entry.startsWith('release-resign-'))) {
    const folder = path.join(root, name);
    const stat = await fsp.stat(folder).catch(() => null);
    if (!stat?.isDirectory() || now - stat.mtimeMs < WORK_DIR_STALE_MS) continue;
    await fsp.rm(folder, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
