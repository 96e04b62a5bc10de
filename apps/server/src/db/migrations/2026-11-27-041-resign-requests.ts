import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * resign_jobs (issue 18): `request_key` is the SHA-256 of what was asked (source version, certificate, its current
 * profiles, options), so asking again returns the run already made; `options` the changes asked (JSON ResignOptions:
 * bundle id, name, version, build, removals); `bytes_done`/`bytes_total` are the bytes of the
 * stage the run is in (the modal shows them under the bar).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('resign_jobs').addColumn('request_key', 'varchar(64)').execute();
  await db.schema.alterTable('resign_jobs').addColumn('options', 'text').execute();
  await db.schema
    .alterTable('resign_jobs')
    .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('resign_jobs')
    .addColumn('bytes_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('resign_jobs_request_idx').on('resign_jobs').columns(['app_id', 'request_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('resign_jobs_request_idx').execute();
  await db.schema.alterTable('resign_jobs').dropColumn('bytes_total').execute();
  await db.schema.alterTable('resign_jobs').dropColumn('bytes_done').execute();
  await db.schema.alterTable('resign_jobs').dropColumn('options').execute();
  await db.schema.alterTable('resign_jobs').dropColumn('request_key').execute();
}
