import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  // Per-app tracker settings: the task view switch (an admin turns it on) and the app's Lark links.
  await db.schema
    .createTable('app_task_settings')
    .addColumn('app_id', 'bigint', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('task_view_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lark_task_list_guid', 'varchar(128)')
    .addColumn('lark_task_list_url', 'varchar(2048)')
    .addColumn('lark_app_token', 'varchar(128)')
    .addColumn('lark_table_id', 'varchar(128)')
    .addColumn('lark_table_url', 'varchar(2048)')
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();

  // Tasks and bugs (SPEC §3 Task/bug record). `record_version` grows by one on every change; the lark_* columns
  // link a record to its Lark task (Task v2 guid) or Bitable record, null while unlinked.
  await db.schema
    .createTable('task_records')
    .addColumn('id', id)
    .addColumn('guid', 'varchar(64)', (c) => c.notNull())
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('record_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('summary', 'varchar(1000)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('assignee_ids', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('start_at', 'bigint')
    .addColumn('due', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('priority', 'varchar(64)')
    .addColumn('status', 'varchar(64)')
    .addColumn('module_name', 'varchar(200)')
    .addColumn('bug_status', 'varchar(64)')
    .addColumn('bug_type', 'varchar(64)')
    .addColumn('bug_severity', 'varchar(64)')
    .addColumn('bug_priority', 'varchar(64)')
    .addColumn('bug_remark', 'text')
    .addColumn('attach_files', 'text', (c) => c.notNull())
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('record_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('client_token', 'varchar(64)')
    .addColumn('lark_guid', 'varchar(128)')
    .addColumn('lark_record_id', 'varchar(128)')
    .addColumn('lark_synced_version', 'integer')
    .addColumn('lark_updated_at', 'bigint')
    .addColumn('updated_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_records_guid_uq').on('task_records').column('guid').unique().execute();
  await db.schema
    .createIndex('task_records_list_idx')
    .on('task_records')
    .columns(['app_id', 'record_type', 'create_time', 'id'])
    .execute();
  await db.schema
    .createIndex('task_records_client_token_uq')
    .on('task_records')
    .columns(['app_id', 'client_token'])
    .unique()
    .execute();
  await db.schema.createIndex('task_records_lark_guid_idx').on('task_records').column('lark_guid').execute();
  await db.schema
    .createIndex('task_records_lark_record_idx')
    .on('task_records')
    .columns(['app_id', 'lark_record_id'])
    .execute();
  await db.schema
    .createIndex('task_records_update_idx')
    .on('task_records')
    .columns(['app_id', 'update_time'])
    .execute();

  // Comments on a record; deleted ones stay as tombstones (deleted_time) so a sync can delete them remotely too.
  await db.schema
    .createTable('task_comments')
    .addColumn('id', id)
    .addColumn('record_id', 'bigint', (c) => c.notNull().references('task_records.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('comment_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('lark_comment_id', 'varchar(128)')
    .addColumn('lark_synced_version', 'integer')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('deleted_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('task_comments_record_idx')
    .on('task_comments')
    .columns(['record_id', 'create_time', 'id'])
    .execute();
  await db.schema.createIndex('task_comments_lark_idx').on('task_comments').column('lark_comment_id').execute();

  // Every change of a record or comment: who (a user, or null with source 'lark'), when, which field, old → new.
  await db.schema
    .createTable('task_history')
    .addColumn('id', id)
    .addColumn('record_id', 'bigint', (c) => c.notNull().references('task_records.id').onDelete('cascade'))
    .addColumn('comment_id', 'bigint')
    .addColumn('record_version', 'integer', (c) => c.notNull())
    .addColumn('actor_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('field', 'varchar(64)', (c) => c.notNull())
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_history_record_idx').on('task_history').columns(['record_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_history').execute();
  await db.schema.dropTable('task_comments').execute();
  await db.schema.dropTable('task_records').execute();
  await db.schema.dropTable('app_task_settings').execute();
}
