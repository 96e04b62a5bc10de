import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  // One self-service device registration (Profile Service): the challenge is stored hashed and used once.
  await db.schema
    .createTable('device_enrollments')
    .addColumn('id', id)
    .addColumn('challenge_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('app_id', 'bigint', (c) => c.references('apps.id').onDelete('cascade'))
    .addColumn('version_id', 'bigint')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .addColumn('used_time', 'bigint')
    .addColumn('udid', 'varchar(64)')
    .addColumn('product', 'varchar(64)')
    .addColumn('os_version', 'varchar(64)')
    .addColumn('serial', 'varchar(64)')
    .addColumn('outcome', 'varchar(16)')
    .execute();
  await db.schema
    .createIndex('device_enrollments_challenge_uq')
    .on('device_enrollments')
    .column('challenge_hash')
    .unique()
    .execute();
  await db.schema
    .createIndex('device_enrollments_app_time_idx')
    .on('device_enrollments')
    .columns(['app_id', 'create_time'])
    .execute();
  await db.schema.createIndex('device_enrollments_user_idx').on('device_enrollments').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_enrollments').execute();
}
