import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  // A signing identity from a .p12: the certificate in the clear, the private key and the p12 password sealed.
  await db.schema
    .createTable('certificates')
    .addColumn('id', id)
    .addColumn('group_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('main_bundle_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('common_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('team_id', 'varchar(64)')
    .addColumn('team_name', 'varchar(255)')
    .addColumn('serial_number', 'varchar(128)', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)', (c) => c.notNull())
    .addColumn('valid_from', 'bigint', (c) => c.notNull())
    .addColumn('valid_to', 'bigint', (c) => c.notNull())
    .addColumn('certificate_der', 'text', (c) => c.notNull())
    .addColumn('chain_der', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('password_sealed', 'text', (c) => c.notNull())
    .addColumn('create_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('certificates_sha1_uq').on('certificates').column('sha1').unique().execute();

  // The provisioning profiles uploaded with a certificate; `content` is the profile file (base64) the signer embeds.
  await db.schema
    .createTable('certificate_profiles')
    .addColumn('id', id)
    .addColumn('certificate_id', 'bigint', (c) => c.notNull().references('certificates.id').onDelete('cascade'))
    .addColumn('uuid', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('profile_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('team_id', 'varchar(64)')
    .addColumn('app_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('bundle_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('devices', 'text', (c) => c.notNull())
    .addColumn('provisions_all_devices', 'integer', (c) => c.notNull())
    .addColumn('lists_certificate', 'integer', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('certificate_profiles_cert_idx')
    .on('certificate_profiles')
    .column('certificate_id')
    .execute();

  // Device IDs for ad-hoc and development installs; `udid` is stored in one spelling (see normalizeUdid).
  await db.schema
    .createTable('devices')
    .addColumn('id', id)
    .addColumn('udid', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('platform', 'varchar(8)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)')
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_udid_uq').on('devices').column('udid').unique().execute();
  await db.schema.createIndex('devices_create_time_idx').on('devices').columns(['create_time', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('devices').execute();
  await db.schema.dropTable('certificate_profiles').execute();
  await db.schema.dropTable('certificates').execute();
}
