import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * Indexes for a million update items (measured by bench/commit-logs.ts). Lists are read with onlyCliff
 * (is_filtered = 0) by default; with is_filtered beside the leading equality a page is one index range in
 * (commit_time, id) order on both databases:
 *  - a workflow's page no longer steps over hidden items (merges, commits outside a committer filter), and the
 *    entries a deep pageNo skips are read from the index alone;
 *  - a committer's trend reads that committer's entries. SQLite keeps no statistics here, and for
 *    `remark = ? AND app_id IN (?)` it preferred (app_id, commit_time), ordered too, which walks the whole app to
 *    find a rare committer's newest 30. That index goes: nothing lists an app in time order without a remark.
 *    (app_id, remark) replaces it for the app's committer names and for deleting an app's items.
 * The (workflow_id, commit_time, id) and (remark, commit_time, id) indexes stay for onlyCliff = false.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('commit_logs_workflow_shown_idx')
    .on('commit_logs')
    .columns(['workflow_id', 'is_filtered', 'commit_time', 'id'])
    .execute();
  await db.schema
    .createIndex('commit_logs_remark_shown_idx')
    .on('commit_logs')
    .columns(['remark', 'is_filtered', 'commit_time', 'id'])
    .execute();
  await db.schema.createIndex('commit_logs_app_remark_idx').on('commit_logs').columns(['app_id', 'remark']).execute();
  await db.schema.dropIndex('commit_logs_app_time_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('commit_logs_app_time_idx')
    .on('commit_logs')
    .columns(['app_id', 'commit_time'])
    .execute();
  await db.schema.dropIndex('commit_logs_app_remark_idx').execute();
  await db.schema.dropIndex('commit_logs_remark_shown_idx').execute();
  await db.schema.dropIndex('commit_logs_workflow_shown_idx').execute();
}
