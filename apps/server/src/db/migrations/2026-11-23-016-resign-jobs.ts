import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  // One re-signing (`/api/zsign`): what was asked, how far it got, and the version it made (the job runs it).
  await db.schema
    .createTable('resign_jobs')
    .addColumn('id', id)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('source_version_id', 'bigint', (c) => c.notNull())
    .addColumn('certificate_id', 'bigint', (c) => c.notNull())
    .addColumn('certificate_name', 'varchar(500)', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull())
    .addColumn('stage', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'varchar(2000)')
    .addColumn('result_version_id', 'bigint')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resign_jobs_app_idx').on('resign_jobs').column('app_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('resign_jobs').execute();
}
