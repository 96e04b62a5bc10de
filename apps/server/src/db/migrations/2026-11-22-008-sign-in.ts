import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  // A local user's accounts at Lark (subject = open_id of our Lark app) and WeCom (subject = userid).
  await db.schema
    .createTable('user_identities')
    .addColumn('id', id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject', 'varchar(128)', (c) => c.notNull())
    .addColumn('union_id', 'varchar(128)')
    .addColumn('display_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('avatar_url', 'varchar(1024)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('last_login_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('user_identities_subject_uq')
    .on('user_identities')
    .columns(['provider', 'subject'])
    .unique()
    .execute();
  await db.schema
    .createIndex('user_identities_user_uq')
    .on('user_identities')
    .columns(['user_id', 'provider'])
    .unique()
    .execute();

  // One row per sign-in attempt through Lark or WeCom: the state sent out, single use, short-lived.
  await db.schema
    .createTable('sign_in_states')
    .addColumn('state_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('binding_hash', 'varchar(64)')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_states_expire_idx').on('sign_in_states').column('expire_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_states').execute();
  await db.schema.dropTable('user_identities').execute();
}
