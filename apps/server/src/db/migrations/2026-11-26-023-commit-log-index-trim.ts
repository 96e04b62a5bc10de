import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * Two fewer indexes to keep up on every ingested item (bench/git-ingest.ts: a 100,000-commit first sync spent most of
 * its SQLite time on commit_logs' eight secondary indexes). (workflow_id, commit_time, id) and (remark, commit_time,
 * id) served only lists that include hidden items (onlyCliff = false); such a list is now two ordered, limited reads
 * of the (…, is_filtered, commit_time, id) indexes, one per is_filtered value, merged (commit-log-page.query.ts), as
 * the summary tab already merges one read per workflow. Every other read already used the "shown" indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('commit_logs_workflow_time_idx').execute();
  await db.schema.dropIndex('commit_logs_remark_time_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('commit_logs_workflow_time_idx')
    .on('commit_logs')
    .columns(['workflow_id', 'commit_time', 'id'])
    .execute();
  await db.schema
    .createIndex('commit_logs_remark_time_idx')
    .on('commit_logs')
    .columns(['remark', 'commit_time', 'id'])
    .execute();
}
