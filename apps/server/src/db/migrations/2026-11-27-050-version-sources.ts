import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * version_sources (issue 19): the source state a version was built from, per repository workflow of its app — the
 * commit given on upload, read from the package, or found by a tag named after the version. `resolved` = 0 while the
 * commit is not in the workflow's mirror yet (a sync is asked for; a later sync resolves it, or the row stays
 * pending in every candidate workflow). One row per (version, workflow).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('version_sources')
    .addColumn('app_version_id', 'bigint', (c) => c.notNull().references('app_versions.id').onDelete('cascade'))
    .addColumn('workflow_id', 'bigint', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('commit_id', 'text', (c) => c.notNull())
    .addColumn('branch', 'text')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('resolved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('version_sources_pk', ['app_version_id', 'workflow_id'])
    .execute();
  await db.schema
    .createIndex('version_sources_pending')
    .on('version_sources')
    .columns(['workflow_id', 'resolved'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('version_sources').execute();
}
