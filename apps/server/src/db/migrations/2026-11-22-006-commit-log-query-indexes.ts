import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * A committer's trend as a viewer who is not an admin sees it: `remark = ? AND app_id IN (the viewer's apps)`, shown
 * items only. (remark, is_filtered, commit_time, id) reads the committer's items of every app and drops those of apps
 * the viewer cannot see, after a table lookup each: a walk as long as the committer's history elsewhere. With app_id
 * beside the leading equality the trend is one ordered, limited read per visible app, merged (measured by
 * bench/commit-logs.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('commit_logs_remark_app_shown_idx')
    .on('commit_logs')
    .columns(['remark', 'app_id', 'is_filtered', 'commit_time', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('commit_logs_remark_app_shown_idx').execute();
}
