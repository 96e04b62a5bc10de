import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  const result = await sql<{ v: string }>`select version() as v`.execute(db).catch(() => null);
  return result?.rows[0]?.v?.includes('PostgreSQL') ?? false;
}

/**
 * Scheduled work (repository polling, housekeeping, the Lark tasks pull) as rows every process reads: a process
 * takes a due schedule under a lease with one conditional UPDATE, so a schedule runs once per interval however many
 * processes there are. job_schedule_runs keeps each run (who, when, how long, why it failed) for a week.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  await db.schema
    .createTable('job_schedules')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('interval_ms', 'bigint', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('next_run_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('lease_expire_time', 'bigint')
    .addColumn('last_run_at', 'bigint')
    .addColumn('last_duration_ms', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('job_schedule_runs')
    .addColumn('id', pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`)
    .addColumn('name', 'varchar(64)', (c) => c.notNull().references('job_schedules.name').onDelete('cascade'))
    .addColumn('owner', 'varchar(64)', (c) => c.notNull())
    .addColumn('manual', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('finish_time', 'bigint')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('job_schedule_runs_name_idx')
    .on('job_schedule_runs')
    .columns(['name', 'start_time'])
    .execute();
  await db.schema.createIndex('job_schedule_runs_time_idx').on('job_schedule_runs').column('start_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_schedule_runs').execute();
  await db.schema.dropTable('job_schedules').execute();
}
