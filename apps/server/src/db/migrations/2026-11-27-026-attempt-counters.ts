import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has shipped; add a new migration instead.

/**
 * Sign-in and install-password guesses are counted in one row per (scope, subject, address) that a single
 * INSERT … ON CONFLICT DO UPDATE … RETURNING bumps before the guess is evaluated, so parallel guesses each get their
 * own count (modules/auth/attempt-limiter.ts). It replaces login_failures, one row per failure, which was counted after
 * the evaluation and let parallel guesses through. Counts held at the upgrade start afresh.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('attempt_counters')
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    // The lowered username or the app id; '' for the count of the address across all of them.
    .addColumn('subject', 'varchar(128)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('attempt_counters_pk', ['scope', 'subject', 'ip'])
    .execute();
  await db.schema.createIndex('attempt_counters_window_idx').on('attempt_counters').column('window_start').execute();
  await db.schema.dropTable('login_failures').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('login_failures')
    .addColumn('id', pg ? sql`bigserial primary key` : sql`integer primary key autoincrement`)
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_user_idx')
    .on('login_failures')
    .columns(['username', 'create_time'])
    .execute();
  await db.schema.createIndex('login_failures_ip_idx').on('login_failures').columns(['ip', 'create_time']).execute();
  await db.schema.dropTable('attempt_counters').execute();
}
