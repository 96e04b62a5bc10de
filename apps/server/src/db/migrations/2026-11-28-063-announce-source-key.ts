import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * apps.source_commit_key (issue 19): the key under which this app's packages carry the commit they were built from
 * (Info.plist key, apk meta-data name, version.json field); null: the default keys (package-source.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('source_commit_key', 'varchar(100)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('apps').dropColumn('source_commit_key').execute();
}
