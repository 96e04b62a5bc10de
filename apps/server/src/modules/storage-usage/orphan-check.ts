import type { Kysely } from 'kysely';
import { STORAGE_ORPHANS_LISTED, type OrphanCheck, type OrphansRemoved } from '@release/contract';
import type { Database } from '../../db/schema.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ConfiguredBlobStore } from '../../storage/create-blob-store.ts';
import { filesOf } from '../versions/version-files.ts';

/**
 * The folders whose files belong to builds: packages (uploaded and re-signed) and their attachments. Anything else
 * in the store (media, task attachments, feedback, the health probe) has an owner of its own and is not judged here.
 */
const BUILD_FOLDERS = ['packages/', 'attachments/'] as const;
const RESIGNED = /^packages\/resigned\/(\d+)\//;

export const isBuildFile = (key: string) => BUILD_FOLDERS.some((folder) => key.startsWith(folder));

/**
 * Orphaned files (issue 20): files in the builds' folders that no build names — not a build still there, nor a
 * removed one whose files the removal job has yet to delete — nor an upload in progress, nor a re-signing that is
 * running. They are left by a crash between storing a file and recording it, or by a store that failed a delete.
 */
export function createOrphanCheck(deps: { db: Kysely<Database>; blobs: ConfiguredBlobStore; logger?: Logger }) {
  const { db } = deps;

  /** Which of these keys something names now. */
  async function named(keys: string[]): Promise<Set<string>> {
    const names = new Set<string>();
    if (!keys.length) return names;
    for (const v of await db
      .selectFrom('app_versions')
      .select(['file_key', 'file_name', 'icon_key', 'attach_files'])
      .execute())
      for (const f of filesOf(v)) names.add(f.key);
    const uploading = await db
      .selectFrom('upload_sessions')
      .select('file_key')
      .where('state', 'in', ['issued', 'uploading', 'completed'])
      .execute();
    for (const u of uploading) names.add(u.file_key);
    const resigning = new Set(
      (await db.selectFrom('resign_jobs').select('id').where('status', 'in', ['pending', 'running']).execute()).map(
        (r) => Number(r.id),
      ),
    );
    return new Set(keys.filter((key) => names.has(key) || resigning.has(Number(RESIGNED.exec(key)?.[1] ?? 0))));
  }

  return {
    /** Reads the whole store once; lists the first orphans found and counts them all. */
    async check(): Promise<OrphanCheck> {
      const found: Array<{ key: string; size: number }> = [];
      let scanned = 0;
      for await (const object of deps.blobs.listObjects()) {
        scanned++;
        if (isBuildFile(object.key)) found.push(object);
      }
      const kept = await named(found.map((f) => f.key));
      const orphans = found.filter((f) => !kept.has(f.key)).sort((a, b) => b.size - a.size);
      return {
        scanned,
        count: orphans.length,
        bytes: orphans.reduce((sum, f) => sum + f.size, 0),
        files: orphans.slice(0, STORAGE_ORPHANS_LISTED),
      };
    },

    /** Deletes the given files that are still orphaned when asked (each checked again; the rest are skipped). */
    async remove(keys: string[]): Promise<OrphansRemoved> {
      const candidates = [...new Set(keys)].filter(isBuildFile);
      const kept = await named(candidates);
      let removed = 0;
      let bytes = 0;
      for (const key of candidates) {
        if (kept.has(key)) continue;
        const stat = await deps.blobs.stat(key);
        if (!stat) continue;
        await deps.blobs.delete(key);
        removed++;
        bytes += stat.size;
      }
      deps.logger?.info({ removed, bytes }, 'orphaned files removed');
      return { removed, bytes, skipped: keys.length - removed };
    },
  };
}
export type OrphanCheckService = ReturnType<typeof createOrphanCheck>;
