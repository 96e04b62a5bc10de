import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  // Lark delivers events at least once: one row per event id taken, written in the same transaction as its items.
  await db.schema
    .createTable('lark_events')
    .addColumn('event_id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('event_type', 'varchar(96)', (c) => c.notNull())
    .addColumn('items_created', 'integer', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lark_events_time_idx').on('lark_events').column('create_time').execute();

  // The Lark documents (or folders) a wiki workflow follows, with the text last seen (the "before" of the next edit).
  await db.schema
    .createTable('lark_doc_follows')
    .addColumn('id', id)
    .addColumn('workflow_id', 'bigint', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('source', 'varchar(2048)', (c) => c.notNull())
    .addColumn('obj_token', 'varchar(128)', (c) => c.notNull())
    .addColumn('obj_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('node_token', 'varchar(128)')
    .addColumn('title', 'varchar(500)', (c) => c.notNull())
    .addColumn('space_name', 'varchar(200)')
    .addColumn('url', 'varchar(2048)')
    .addColumn('content', 'text')
    .addColumn('subscribed', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'varchar(500)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lark_doc_follows_uq')
    .on('lark_doc_follows')
    .columns(['workflow_id', 'obj_token'])
    .unique()
    .execute();
  await db.schema.createIndex('lark_doc_follows_obj_idx').on('lark_doc_follows').column('obj_token').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lark_doc_follows').execute();
  await db.schema.dropTable('lark_events').execute();
}
