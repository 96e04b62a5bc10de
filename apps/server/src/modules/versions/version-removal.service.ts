import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';

export const VersionRemovalMessages = { notFound: '版本不存在' } as const;

/** What a removal did: the files deleted, and those kept because something else still points at them. */
export interface VersionRemoval {
  versionId: number;
  deleted: string[];
  kept: string[];
}

/** The stored files a version row names: its package, its icon, its attachments. */
function filesOf(version: { file_key: string; icon_key: string | null; attach_files: string }): string[] {
  let attachments: unknown = [];
  try {
    attachments = JSON.parse(version.attach_files);
  } catch {
    // An unreadable list names no file: nothing of it is deleted.
  }
  const attachmentKeys = Array.isArray(attachments)
    ? attachments
        .map((a: { fileKey?: unknown } | null) => a?.fileKey)
        .filter((k): k is string => typeof k === 'string' && k.length > 0)
    : [];
  return [...new Set([version.file_key, ...(version.icon_key ? [version.icon_key] : []), ...attachmentKeys])];
}

/**
 * Deletes versions: the row first (its update items and their version links go with it, by the foreign keys), in a
 * transaction, then each of its files that nothing else names any more. A file is kept while any version row names
 * it (package, icon or attachment) or any app's icon points at it — the app icon taken from the first version's icon
 * outlives that version. Files go only after the commit: a crash in between leaves an orphan file at most, never a
 * row pointing at a missing file.
 */
export function createVersionRemovalService(deps: {
  db: Kysely<Database>;
  blobs: BlobStore;
  policy: AppsPolicy;
  logger?: Logger;
}) {
  const { db } = deps;

  async function stillReferenced(key: string): Promise<boolean> {
    const version = await db
      .selectFrom('app_versions')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('file_key', '=', key),
          eb('icon_key', '=', key),
          eb('attach_files', 'like', `%${JSON.stringify(key)}%`),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    if (version) return true;
    // app_icon holds a URL (/api/media/<key>, or an absolute one): the key at its end.
    const app = await db
      .selectFrom('apps')
      .select('id')
      .where('app_icon', 'like', `%${key}`)
      .limit(1)
      .executeTakeFirst();
    return Boolean(app);
  }

  async function remove(versionId: number): Promise<VersionRemoval> {
    const version = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('app_versions')
        .select(['id', 'file_key', 'icon_key', 'attach_files'])
        .where('id', '=', versionId)
        .executeTakeFirst();
      if (!row) return null;
      await trx.deleteFrom('app_versions').where('id', '=', versionId).execute();
      return row;
    });
    if (!version) throw AppError.notFound(VersionRemovalMessages.notFound);
    const deleted: string[] = [];
    const kept: string[] = [];
    for (const key of filesOf(version)) {
      if (await stillReferenced(key)) {
        kept.push(key);
        continue;
      }
      try {
        await deps.blobs.delete(key);
        deleted.push(key);
      } catch (error) {
        // The row is gone either way; a file the store could not delete now is an orphan, not a broken link.
        deps.logger?.warn({ err: error, key }, 'deleting a removed version’s file failed');
      }
    }
    return { versionId, deleted, kept };
  }

  return {
    /** For the server's own work (a retention schedule): no permit check. */
    remove,

    /** An editor of the version's app removes it. */
    async removeAsEditor(user: AuthUser, versionId: number): Promise<VersionRemoval> {
      const row = await db.selectFrom('app_versions').select('app_id').where('id', '=', versionId).executeTakeFirst();
      if (!row) throw AppError.notFound(VersionRemovalMessages.notFound);
      await deps.policy.assertCanEdit(user, Number(row.app_id));
      return remove(versionId);
    },
  };
}
export type VersionRemovalService = ReturnType<typeof createVersionRemovalService>;
