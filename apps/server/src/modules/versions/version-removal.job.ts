import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { filesOf, keptBecause } from './version-files.ts';

export const REMOVE_FILES_JOB = 'versions.remove-files';
/** One job deletes the files of at most this many removed builds (retention queues several). */
export const REMOVE_FILES_BATCH = 500;
/** The lease is renewed this often while a long batch deletes (the lease is 2 min). */
const LEASE_RENEW_MS = 30_000;

export interface RemovedFiles {
  deleted: string[];
  kept: string[];
  /** Bytes given back to the store (the package sizes known, the other files as the store states them). */
  freedBytes: number;
}

/**
 * `versions.remove-files`: deletes the files of removed builds (their rows are already tombstones) that nothing
 * still names. Each step is safe to repeat — a file already gone is deleted again without harm — so a run cut short
 * by a crash is simply run again when its lease runs out, by this process or another.
 */
export function createRemoveFilesJob(deps: { db: Kysely<Database>; blobs: BlobStore; clock: Clock; logger?: Logger }) {
  const { db } = deps;
  return defineJob<{ versionIds: number[] }, RemovedFiles>({
    kind: REMOVE_FILES_JOB,
    payload: z.object({ versionIds: z.array(z.number().int().positive()).min(1).max(REMOVE_FILES_BATCH) }),
    maxAttempts: 8,
    async run({ versionIds }, job) {
      const rows = await db
        .selectFrom('app_versions')
        .select(['id', 'app_id', 'file_key', 'file_name', 'icon_key', 'attach_files', 'app_size'])
        .where('id', 'in', versionIds)
        .where('removed_time', 'is not', null)
        .execute();
      const outcome: RemovedFiles = { deleted: [], kept: [], freedBytes: 0 };
      let renewedAt = deps.clock.now();
      for (const row of rows) {
        for (const file of filesOf(row)) {
          if (await keptBecause(db, file, { appId: Number(row.app_id) })) {
            outcome.kept.push(file.key);
            continue;
          }
          const size = file.kind === 'package' ? Number(row.app_size) : ((await deps.blobs.stat(file.key))?.size ?? 0);
          // A store that fails throws: the job is tried again later, from the start (what is gone stays gone).
          await deps.blobs.delete(file.key);
          if (file.kind === 'icon') await db.deleteFrom('media_files').where('key', '=', file.key).execute();
          outcome.deleted.push(file.key);
          outcome.freedBytes += size;
          if (deps.clock.now() - renewedAt > LEASE_RENEW_MS) {
            await job.renewLease?.();
            renewedAt = deps.clock.now();
          }
        }
      }
      deps.logger?.info(
        { versionIds, deleted: outcome.deleted.length, kept: outcome.kept.length, freedBytes: outcome.freedBytes },
        'removed builds’ files deleted',
      );
      return outcome;
    },
  });
}
export type RemoveFilesJob = ReturnType<typeof createRemoveFilesJob>;
