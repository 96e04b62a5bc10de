import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * Removing versions (issue 20): a removed version keeps its row as a tombstone (removed_time, removed_by) so that
 * workflow items and snapshots that named it still say which build it was (已删除); every list of versions leaves it
 * out and its files are deleted by the job `versions.remove-files`. `pinned` (保留) keeps a build from retention.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('app_versions').addColumn('removed_time', 'bigint').execute();
  await db.schema.alterTable('app_versions').addColumn('removed_by', 'bigint').execute();
  await db.schema
    .alterTable('app_versions')
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('app_versions').dropColumn('pinned').execute();
  await db.schema.alterTable('app_versions').dropColumn('removed_by').execute();
  await db.schema.alterTable('app_versions').dropColumn('removed_time').execute();
}
