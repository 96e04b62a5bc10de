import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * Tester feedback and install statistics (issue 20).
 * - app_task_settings: `feedback_enabled` (on unless an editor turns it off) and `feedback_assignee_ids` (JSON list of
 *   the users a feedback bug is assigned to; empty: unassigned, the app's editors hear of it).
 * - task_records.version_id: the build a feedback bug was sent from (null for other records).
 * - install_events: one row per (version, device, kind, UTC day) — a package download or an OTA install (the iOS
 *   manifest fetch) — with the device's family and OS version and the signed-in user when there is one.
 */
async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const id = (await isPostgres(db)) ? sql`bigserial primary key` : sql`integer primary key autoincrement`;
  await db.schema
    .alterTable('app_task_settings')
    .addColumn('feedback_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('app_task_settings')
    .addColumn('feedback_assignee_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('task_records').addColumn('version_id', 'bigint').execute();
  await db.schema
    .createTable('install_events')
    .addColumn('id', id)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('version_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('device_key', 'varchar(80)', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('device_family', 'varchar(32)', (c) => c.notNull())
    .addColumn('os_version', 'varchar(32)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('install_events_once_idx')
    .on('install_events')
    .columns(['version_id', 'kind', 'day', 'device_key'])
    .unique()
    .execute();
  await db.schema.createIndex('install_events_app_day_idx').on('install_events').columns(['app_id', 'day']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('install_events').execute();
  await db.schema.alterTable('task_records').dropColumn('version_id').execute();
  await db.schema.alterTable('app_task_settings').dropColumn('feedback_assignee_ids').execute();
  await db.schema.alterTable('app_task_settings').dropColumn('feedback_enabled').execute();
}
