import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  const id = pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`;

  // The durable job queue: claimed by one process at a time under a lease, retried with backoff.
  await db.schema
    .createTable('jobs')
    .addColumn('id', id)
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_expire_time', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('dedupe_key', 'varchar(200)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('finish_time', 'bigint')
    .execute();
  await db.schema.createIndex('jobs_dedupe_uq').on('jobs').column('dedupe_key').unique().execute();
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at']).execute();
  await db.schema.createIndex('jobs_lease_idx').on('jobs').columns(['status', 'lease_expire_time']).execute();

  // The delivery log: one row per message and receiver.
  await db.schema
    .createTable('deliveries')
    .addColumn('id', id)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('workflow_id', 'bigint', (c) => c.references('workflows.id').onDelete('set null'))
    .addColumn('receiver_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('target', 'varchar(255)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('receiver_code', 'integer')
    .addColumn('receiver_message', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_id', 'bigint', (c) => c.references('jobs.id').onDelete('set null'))
    // Set just before a request leaves and cleared when it is known to have failed: a delivery found with it set
    // after a crash may or may not have reached the receiver.
    .addColumn('sending_since', 'bigint')
    .addColumn('requested_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('sent_time', 'bigint')
    .execute();
  await db.schema.createIndex('deliveries_time_idx').on('deliveries').columns(['create_time', 'id']).execute();
  await db.schema.createIndex('deliveries_app_idx').on('deliveries').columns(['app_id', 'create_time']).execute();
  await db.schema.createIndex('deliveries_status_idx').on('deliveries').columns(['status', 'create_time']).execute();
  await db.schema.createIndex('deliveries_job_idx').on('deliveries').column('job_id').execute();
  await db.schema.createIndex('deliveries_requested_by_idx').on('deliveries').column('requested_by').execute();

  // The Lark bot's signing secret (sealed with the server secret) and how far autoPush has sent.
  await db.schema.alterTable('workflows').addColumn('robot_secret', 'varchar(512)').execute();
  await db.schema.alterTable('workflows').addColumn('auto_push_cursor', 'bigint').execute();
  // Items stored before this migration are not new: autoPush starts after them.
  await sql`update workflows set auto_push_cursor = (select max(c.id) from commit_logs c where c.workflow_id = workflows.id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workflows').dropColumn('auto_push_cursor').execute();
  await db.schema.alterTable('workflows').dropColumn('robot_secret').execute();
  await db.schema.dropTable('deliveries').execute();
  await db.schema.dropTable('jobs').execute();
}
