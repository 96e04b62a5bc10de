import type { Kysely } from 'kysely';
import {
  VersionRemovalMessages,
  type RemovalBuild,
  type RemovalFile,
  type VersionRemovalPreview,
  type VersionRemovalQuery,
  type VersionRemovalResult,
} from '@release/contract';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import { filesOf, keptBecause } from './version-files.ts';
import { REMOVE_FILES_BATCH, type RemoveFilesJob } from './version-removal.job.ts';

/** Re-signed copies of copies are followed this deep (a chain longer than that is not made by people). */
const COPY_DEPTH = 5;

const buildColumns = [
  'id',
  'app_id',
  'index_no',
  'app_version',
  'build',
  'file_key',
  'file_name',
  'icon_key',
  'attach_files',
  'app_size',
] as const;

/**
 * Removing builds (issue 20). A removed version keeps its row as a tombstone (removed_time): every list leaves it
 * out at once, and workflow items and snapshots that named it still say which build it was (已删除). Its files —
 * package, icon, attachments, and those of the builds re-signed from it, which go with it — are deleted by the
 * durable job `versions.remove-files`, queued in the same transaction, unless something else still names them
 * (another build, an app icon, a snapshot). The decision record "Removing a version: a tombstone and a durable job
 * (issue 20)" tells why.
 */
export function createVersionRemovalService(deps: {
  db: Kysely<Database>;
  blobs: BlobStore;
  policy: AppsPolicy;
  jobs: JobQueue;
  job: () => RemoveFilesJob;
  clock: Clock;
}) {
  const { db } = deps;

  const toBuild = (r: {
    id: number;
    index_no: number;
    app_version: string | null;
    build: string | null;
    file_name: string;
  }): RemovalBuild => ({
    id: Number(r.id),
    indexNo: r.index_no,
    appVersion: r.app_version,
    build: r.build,
    fileName: r.file_name,
  });

  /** The editor's version of that app, not removed; the reasons it cannot be are the caller's answer. */
  async function editableVersion(user: AuthUser, query: VersionRemovalQuery) {
    await deps.policy.assertCanEdit(user, query.appId);
    const row = await db
      .selectFrom('app_versions')
      .select([...buildColumns, 'removed_time'])
      .where('id', '=', query.id)
      .where('app_id', '=', query.appId)
      .executeTakeFirst();
    if (!row) throw AppError.notFound(VersionRemovalMessages.notFound);
    if (row.removed_time !== null) throw AppError.notFound(VersionRemovalMessages.alreadyRemoved);
    return row;
  }

  /** The builds re-signed from these (and from those), not removed yet. */
  async function copiesOf(ids: number[]) {
    const copies: Array<Awaited<ReturnType<typeof editableVersion>>> = [];
    let sources = ids;
    for (let depth = 0; depth < COPY_DEPTH && sources.length; depth++) {
      const found = await db
        .selectFrom('resign_jobs as r')
        .innerJoin('app_versions as v', 'v.id', 'r.result_version_id')
        .select(buildColumns.map((c) => `v.${c}` as const))
        .select('v.removed_time')
        .where('r.source_version_id', 'in', sources)
        .where('v.removed_time', 'is', null)
        .execute();
      const fresh = found.filter((f) => !copies.some((c) => c.id === f.id) && !ids.includes(Number(f.id)));
      copies.push(...fresh);
      sources = fresh.map((f) => Number(f.id));
    }
    return copies;
  }

  async function assertNotResigning(ids: number[]) {
    const running = await db
      .selectFrom('resign_jobs')
      .select('id')
      .where('source_version_id', 'in', ids)
      .where('status', 'in', ['pending', 'running'])
      .limit(1)
      .executeTakeFirst();
    if (running) throw AppError.conflict(VersionRemovalMessages.resigning);
  }

  /**
   * Marks the builds removed and queues the deletion of their files, in one transaction. Only builds not removed
   * yet are marked (a second click, or two editors at once: one of them wins); answers those marked and the job.
   */
  async function removeBuilds(ids: number[], by: number | null): Promise<VersionRemovalResult | null> {
    return db.transaction().execute(async (trx) => {
      const marked: number[] = [];
      const now = deps.clock.now();
      for (let i = 0; i < ids.length; i += REMOVE_FILES_BATCH) {
        const batch = ids.slice(i, i + REMOVE_FILES_BATCH);
        const rows = await trx
          .updateTable('app_versions')
          .set({ removed_time: now, removed_by: by, update_time: now })
          .where('id', 'in', batch)
          .where('removed_time', 'is', null)
          .returning('id')
          .execute();
        marked.push(...rows.map((r) => Number(r.id)));
      }
      if (!marked.length) return null;
      // UPDATE … RETURNING gives rows in the order PostgreSQL found them (a row updated before moves): answered in id order.
      marked.sort((a, b) => a - b);
      let jobId = 0;
      for (let i = 0; i < marked.length; i += REMOVE_FILES_BATCH) {
        const queued = await deps.jobs.enqueue(
          deps.job(),
          { versionIds: marked.slice(i, i + REMOVE_FILES_BATCH) },
          { trx },
        );
        jobId ||= queued.id;
      }
      return { removedIds: marked, jobId };
    });
  }

  return {
    removeBuilds,

    /** What the confirm lists: the build, its re-signed copies, each file with its size and whether it stays. */
    async preview(user: AuthUser, query: VersionRemovalQuery): Promise<VersionRemovalPreview> {
      const version = await editableVersion(user, query);
      const copies = await copiesOf([Number(version.id)]);
      const leaving = [Number(version.id), ...copies.map((c) => Number(c.id))];
      const files: RemovalFile[] = [];
      for (const build of [version, ...copies]) {
        for (const file of filesOf(build)) {
          const size =
            file.kind === 'package' ? Number(build.app_size) : ((await deps.blobs.stat(file.key))?.size ?? 0);
          files.push({
            kind: file.kind,
            name: file.name,
            versionId: Number(build.id),
            size,
            keptBecause: await keptBecause(db, file, { appId: query.appId, leaving }),
          });
        }
      }
      const items = await db
        .selectFrom('commit_logs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) =>
          eb.or([
            eb('app_version_id', 'in', leaving),
            eb(
              'id',
              'in',
              eb.selectFrom('commit_log_versions').select('commit_log_id').where('app_version_id', 'in', leaving),
            ),
          ]),
        )
        .executeTakeFirst();
      return {
        version: toBuild(version),
        copies: copies.map(toBuild),
        files,
        freedBytes: files.reduce((sum, f) => sum + (f.keptBecause ? 0 : f.size), 0),
        items: Number(items?.n ?? 0),
      };
    },

    /** An editor of the app (or an admin) removes one build and its re-signed copies. */
    async removeAsEditor(user: AuthUser, query: VersionRemovalQuery): Promise<VersionRemovalResult> {
      const version = await editableVersion(user, query);
      const ids = [Number(version.id), ...(await copiesOf([Number(version.id)])).map((c) => Number(c.id))];
      await assertNotResigning(ids);
      const removed = await removeBuilds(ids, user.userId);
      // Another click (or another editor) removed it between the check and the update.
      if (!removed?.removedIds.includes(Number(version.id)))
        throw AppError.notFound(VersionRemovalMessages.alreadyRemoved);
      deps.jobs.wake();
      return removed;
    },
  };
}
export type VersionRemovalService = ReturnType<typeof createVersionRemovalService>;
