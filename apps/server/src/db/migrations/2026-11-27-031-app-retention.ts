import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * app_retention_rules (issue 20): an app's rule for removing old builds — keep the last `keep_last` of each
 * platform and those newer than `keep_days` days (the newest of each platform, 保留 builds and builds bound to a
 * snapshot always stay). The schedule 版本保留清理 applies the enabled rules. An app without a row follows the
 * default for new apps (settings key `retention_default`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_retention_rules')
    .addColumn('app_id', 'bigint', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('keep_last', 'integer', (c) => c.notNull())
    .addColumn('keep_days', 'integer', (c) => c.notNull())
    .addColumn('update_by', 'bigint')
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_retention_rules').execute();
}
