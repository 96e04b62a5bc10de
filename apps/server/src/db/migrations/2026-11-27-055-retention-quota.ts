import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * app_retention_rules.quota_mb (issue 20): the app's space for packages in MB (0: none). Over it, the rule removes
 * more builds — expired-profile builds first, then the oldest — never the newest of a platform, 保留 or bound ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('app_retention_rules')
    .addColumn('quota_mb', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('app_retention_rules').dropColumn('quota_mb').execute();
}
