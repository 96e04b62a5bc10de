import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  await db.schema
    .createTable('workflows')
    .addColumn('id', id)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('tab_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('manage_type', 'varchar(16)')
    .addColumn('repo_type', 'varchar(16)')
    .addColumn('repo_path', 'varchar(1024)')
    .addColumn('default_branch', 'varchar(1200)')
    .addColumn('committers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('robot_url', 'varchar(1024)')
    .addColumn('auto_push', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('package_type', 'varchar(16)')
    .addColumn('order_no', 'integer', (c) => c.notNull())
    .addColumn('enterprise_name', 'varchar(128)')
    .addColumn('webhook_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('webhook_secret', 'varchar(255)', (c) => c.notNull())
    .addColumn('last_sync_time', 'bigint')
    .addColumn('last_sync_error', 'text')
    .addColumn('create_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflows_app_idx').on('workflows').columns(['app_id', 'order_no']).execute();
  await db.schema.createIndex('workflows_webhook_uq').on('workflows').column('webhook_token').unique().execute();
  await db.schema.createIndex('workflows_create_by_idx').on('workflows').column('create_by').execute();

  await db.schema
    .createTable('commit_logs')
    .addColumn('id', id)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('workflow_id', 'bigint', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('commit_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('commit_time', 'bigint', (c) => c.notNull())
    .addColumn('branch', 'varchar(255)')
    .addColumn('tag_name', 'varchar(255)')
    .addColumn('tag_summary', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('commit_message', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('file_urls', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('remark', 'varchar(128)', (c) => c.notNull())
    .addColumn('author_email', 'varchar(255)')
    .addColumn('source_url', 'varchar(1024)')
    .addColumn('app_version_id', 'bigint', (c) => c.references('app_versions.id').onDelete('cascade'))
    .addColumn('metadata', 'text')
    .addColumn('is_filtered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('commit_logs_workflow_commit_uq')
    .on('commit_logs')
    .columns(['workflow_id', 'commit_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('commit_logs_workflow_time_idx')
    .on('commit_logs')
    .columns(['workflow_id', 'commit_time', 'id'])
    .execute();
  await db.schema
    .createIndex('commit_logs_remark_time_idx')
    .on('commit_logs')
    .columns(['remark', 'commit_time', 'id'])
    .execute();
  await db.schema
    .createIndex('commit_logs_app_time_idx')
    .on('commit_logs')
    .columns(['app_id', 'commit_time'])
    .execute();
  await db.schema.createIndex('commit_logs_version_idx').on('commit_logs').column('app_version_id').execute();

  await db.schema
    .createTable('commit_log_versions')
    .addColumn('commit_log_id', 'bigint', (c) => c.notNull().references('commit_logs.id').onDelete('cascade'))
    .addColumn('app_version_id', 'bigint', (c) => c.notNull().references('app_versions.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('commit_log_versions_pk', ['commit_log_id', 'app_version_id'])
    .execute();
  await db.schema
    .createIndex('commit_log_versions_version_idx')
    .on('commit_log_versions')
    .column('app_version_id')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('workflow_id', 'bigint', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('delivery_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_deliveries_pk', ['workflow_id', 'delivery_key'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_time_idx').on('webhook_deliveries').column('create_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_deliveries', 'commit_log_versions', 'commit_logs', 'workflows'])
    await db.schema.dropTable(table).execute();
}
