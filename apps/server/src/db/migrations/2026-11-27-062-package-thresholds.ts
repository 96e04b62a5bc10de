import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * app_package_thresholds (issue 19): what an app's editors want to hear about when a build's package changes — size
 * growth over `size_percent` % or `size_mb` MB (null: not watched), a new dangerous permission, a changed signing
 * certificate, a raised minimum OS. Crossing one marks the build (its metadata) and its push says so first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_package_thresholds')
    .addColumn('app_id', 'bigint', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('size_percent', 'integer')
    .addColumn('size_mb', 'integer')
    .addColumn('dangerous_permission', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('certificate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('min_os_raised', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('update_by', 'bigint')
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_package_thresholds').execute();
}
