import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * Every icon, screenshot and video the server stores (/api/upload, package icons), so that housekeeping can find
 * those no record references after a grace period and delete them. Files stored before this migration are not
 * listed and stay.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_files')
    .addColumn('key', 'varchar(512)', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_files_create_time_idx').on('media_files').column('create_time').execute();
  // Version icons are looked up by key when unreferenced media are sought.
  await db.schema.createIndex('app_versions_icon_key_idx').on('app_versions').column('icon_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('app_versions_icon_key_idx').execute();
  await db.schema.dropTable('media_files').execute();
}
