import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  // App Store Connect API keys: issuer id and key id in the clear, the .p8 sealed.
  await db.schema
    .createTable('apple_accounts')
    .addColumn('id', id)
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('issuer_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('key_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('team_id', 'varchar(64)')
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_sync', 'text')
    .addColumn('last_sync_time', 'bigint')
    .addColumn('create_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('apple_accounts_key_id_uq').on('apple_accounts').column('key_id').unique().execute();

  // Apps and uploaded certificates bound to an account; a target belongs to one account at most.
  await db.schema
    .createTable('apple_account_bindings')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('apple_accounts.id').onDelete('cascade'))
    .addColumn('target_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('apple_account_bindings_pk', ['target_type', 'target_id'])
    .execute();
  await db.schema
    .createIndex('apple_account_bindings_account_idx')
    .on('apple_account_bindings')
    .column('account_id')
    .execute();

  // What Apple listed at the last sync (devices also as registered since), per account.
  await db.schema
    .createTable('apple_devices')
    .addColumn('id', id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('apple_accounts.id').onDelete('cascade'))
    .addColumn('apple_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('udid', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('device_class', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('model', 'varchar(128)')
    .execute();
  await db.schema
    .createIndex('apple_devices_account_uq')
    .on('apple_devices')
    .columns(['account_id', 'apple_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('apple_certificates')
    .addColumn('id', id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('apple_accounts.id').onDelete('cascade'))
    .addColumn('apple_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('certificate_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('serial_number', 'varchar(128)', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('apple_certificates_account_uq')
    .on('apple_certificates')
    .columns(['account_id', 'apple_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('apple_bundle_ids')
    .addColumn('id', id)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('apple_accounts.id').onDelete('cascade'))
    .addColumn('apple_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('identifier', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('seed_id', 'varchar(64)')
    .execute();
  await db.schema
    .createIndex('apple_bundle_ids_account_uq')
    .on('apple_bundle_ids')
    .columns(['account_id', 'apple_id'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'apple_bundle_ids',
    'apple_certificates',
    'apple_devices',
    'apple_account_bindings',
    'apple_accounts',
  ])
    await db.schema.dropTable(table).execute();
}
