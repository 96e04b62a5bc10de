import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

/**
 * harmony_certificates (issue 21): the HarmonyOS signing identities an admin uploads (.p12 and its password, as the iOS
 * certificates), with which the server signs the install manifest of each HarmonyOS version whose modules are signed
 * with the same key (`public_key`, base64 SPKI DER, matched against the build's `signature.publicKey`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = (await isPostgres(db)) ? sql`bigserial primary key` : sql`integer primary key autoincrement`;
  await db.schema
    .createTable('harmony_certificates')
    .addColumn('id', id)
    .addColumn('common_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('serial_number', 'varchar(128)', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('valid_from', 'bigint', (c) => c.notNull())
    .addColumn('valid_to', 'bigint', (c) => c.notNull())
    .addColumn('certificate_der', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('password_sealed', 'text', (c) => c.notNull())
    .addColumn('create_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('harmony_certificates_sha1_uq')
    .on('harmony_certificates')
    .column('sha1')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('harmony_certificates').execute();
}
