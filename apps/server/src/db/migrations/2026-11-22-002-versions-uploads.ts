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
    .createTable('upload_sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_key', 'varchar(512)', (c) => c.notNull().unique())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_size', 'bigint')
    .addColumn('part_size', 'bigint')
    .addColumn('store_upload_id', 'varchar(1024)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_sessions_state_idx')
    .on('upload_sessions')
    .columns(['state', 'update_time'])
    .execute();
  await db.schema.createIndex('upload_sessions_user_idx').on('upload_sessions').column('user_id').execute();

  await db.schema
    .createTable('app_versions')
    .addColumn('id', id)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('index_no', 'integer', (c) => c.notNull())
    .addColumn('native_package_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_key', 'varchar(512)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('app_size', 'bigint', (c) => c.notNull())
    .addColumn('app_version', 'varchar(128)')
    .addColumn('build', 'varchar(128)')
    .addColumn('bundle_id', 'varchar(255)')
    .addColumn('display_name', 'varchar(255)')
    .addColumn('icon_key', 'varchar(512)')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('attach_files', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('expire_date', 'bigint')
    .addColumn('chat_env', 'varchar(32)')
    .addColumn('upload_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_versions_app_idx').on('app_versions').columns(['app_id', 'create_time']).execute();
  await db.schema
    .createIndex('app_versions_app_index_uq')
    .on('app_versions')
    .columns(['app_id', 'index_no'])
    .unique()
    .execute();
  await db.schema.createIndex('app_versions_file_uq').on('app_versions').column('file_key').unique().execute();
  await db.schema
    .createIndex('app_versions_type_idx')
    .on('app_versions')
    .columns(['app_id', 'native_package_type', 'create_time'])
    .execute();
  await db.schema.createIndex('app_versions_upload_by_idx').on('app_versions').column('upload_by').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_versions').execute();
  await db.schema.dropTable('upload_sessions').execute();
}
