import fs from 'node:fs';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { NodeSqliteDialect } from './node-sqlite-dialect.ts';
import { registerPgCopier } from './pg-copy.ts';
import { createPgPool, loadPg, pgTimeouts, registerPgPool } from './pg-pool.ts';

/** DATABASE_STATEMENT_TIMEOUT_MS's default. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
import { SchemaScopedPostgresDialect } from './schema-scoped-postgres.ts';
import type { Database } from './schema.ts';
import * as m001 from './migrations/2026-11-22-001-foundation.ts';
import * as m002 from './migrations/2026-11-22-002-versions-uploads.ts';
import * as m003 from './migrations/2026-11-22-003-api-tokens.ts';
import * as m004 from './migrations/2026-11-22-004-workflows-commit-logs.ts';
import * as m005 from './migrations/2026-11-22-005-commit-log-indexes.ts';
import * as m006 from './migrations/2026-11-22-006-commit-log-query-indexes.ts';
import * as m008 from './migrations/2026-11-22-008-sign-in.ts';
import * as m009 from './migrations/2026-11-23-009-jobs-deliveries.ts';
import * as m010 from './migrations/2026-11-23-010-certificates-devices.ts';
import * as m011 from './migrations/2026-11-23-011-lark-events.ts';
import * as m014 from './migrations/2026-11-23-014-tasks.ts';
import * as m016 from './migrations/2026-11-23-016-resign-jobs.ts';
import * as m017 from './migrations/2026-11-23-017-apple-accounts.ts';
import * as m018 from './migrations/2026-11-23-018-device-enroll.ts';
import * as m019 from './migrations/2026-11-23-019-lark-image-keys.ts';
import * as m020 from './migrations/2026-11-23-020-tasks-lark-deleted.ts';
import * as m021 from './migrations/2026-11-23-021-device-review.ts';
import * as m022 from './migrations/2026-11-23-022-device-remark-review.ts';
import * as m023 from './migrations/2026-11-26-023-commit-log-index-trim.ts';
import * as m024 from './migrations/2026-11-26-024-commit-log-app-fk.ts';
import * as m025 from './migrations/2026-11-27-025-app-public-install.ts';
import * as m026 from './migrations/2026-11-27-026-attempt-counters.ts';
import * as m027 from './migrations/2026-11-27-027-app-bundle-ids.ts';
import * as m028 from './migrations/2026-11-27-028-job-schedules.ts';
import * as m029 from './migrations/2026-11-27-029-media-files.ts';
import * as m030 from './migrations/2026-11-27-030-version-removal.ts';
import * as m031 from './migrations/2026-11-27-031-app-retention.ts';
import * as m040 from './migrations/2026-11-27-040-feedback-install-stats.ts';
import * as m041 from './migrations/2026-11-27-041-resign-requests.ts';
import * as m050 from './migrations/2026-11-27-050-version-sources.ts';
import * as m055 from './migrations/2026-11-27-055-retention-quota.ts';
import * as m062 from './migrations/2026-11-27-062-package-thresholds.ts';
import * as m063 from './migrations/2026-11-28-063-announce-source-key.ts';
import * as m064 from './migrations/2026-11-28-064-hsign-harmony-certificates.ts';
import * as m065 from './migrations/2026-11-28-065-calendar-counts.ts';
import * as m066 from './migrations/2026-11-28-066-commit-id-collate-c.ts';
import * as m067 from './migrations/2026-11-28-067-upload-sessions-user-state.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** PostgreSQL schema in use. */
  schema?: string;
  /**
   * PostgreSQL: one connection without the statement timeout, for migrations — a migration that rewrites a
   * large table may rightly run longer than any request should (the caller destroys it).
   */
  openUnbounded?: () => Kysely<Database>;
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… or undefined for SQLite. */
  url?: string;
  /** PostgreSQL schema to use (created when missing). */
  schema?: string;
  /** SQLite file; `:memory:` works too. */
  sqliteFile: string;
  /** An idle PostgreSQL connection that was ended (default: one line on stderr). */
  onConnectionError?: (error: Error) => void;
  /** PostgreSQL connections at most (DATABASE_POOL_SIZE, default 10). */
  poolSize?: number;
  /** How long a query waits for a PostgreSQL connection before failing with 503 (DATABASE_POOL_WAIT_MS, default 10 s). */
  acquireTimeoutMs?: number;
  /** PostgreSQL statement timeout (DATABASE_STATEMENT_TIMEOUT_MS, default 30 s; 0: none); see pg-pool.ts. */
  statementTimeoutMs?: number;
  /** Its name in pg_stat_activity (default pgApplicationName(schema)); a test's own connections take another. */
  applicationName?: string;
}

/** What this server's PostgreSQL connections are called in pg_stat_activity: the schema tells deployments (and tests) apart. */
export function pgApplicationName(schema: string): string {
  return `release-system/${schema}`.slice(0, 63);
}

/** Migrations in order. Each file is frozen once shipped. */
const migrations: Record<string, Migration> = {
  '2026-11-22-001-foundation': m001,
  '2026-11-22-002-versions-uploads': m002,
  '2026-11-22-003-api-tokens': m003,
  '2026-11-22-004-workflows-commit-logs': m004,
  '2026-11-22-005-commit-log-indexes': m005,
  '2026-11-22-006-commit-log-query-indexes': m006,
  '2026-11-22-008-sign-in': m008,
  '2026-11-23-009-jobs-deliveries': m009,
  '2026-11-23-010-certificates-devices': m010,
  '2026-11-23-011-lark-events': m011,
  '2026-11-23-014-tasks': m014,
  '2026-11-23-016-resign-jobs': m016,
  '2026-11-23-017-apple-accounts': m017,
  '2026-11-23-018-device-enroll': m018,
  '2026-11-23-019-lark-image-keys': m019,
  '2026-11-23-020-tasks-lark-deleted': m020,
  '2026-11-23-021-device-review': m021,
  '2026-11-23-022-device-remark-review': m022,
  '2026-11-26-023-commit-log-index-trim': m023,
  '2026-11-26-024-commit-log-app-fk': m024,
  '2026-11-27-025-app-public-install': m025,
  '2026-11-27-026-attempt-counters': m026,
  '2026-11-27-027-app-bundle-ids': m027,
  '2026-11-27-028-job-schedules': m028,
  '2026-11-27-029-media-files': m029,
  '2026-11-27-030-version-removal': m030,
  '2026-11-27-031-app-retention': m031,
  '2026-11-27-040-feedback-install-stats': m040,
  '2026-11-27-041-resign-requests': m041,
  '2026-11-27-050-version-sources': m050,
  '2026-11-27-055-retention-quota': m055,
  '2026-11-27-062-package-thresholds': m062,
  '2026-11-28-063-announce-source-key': m063,
  '2026-11-28-064-hsign-harmony-certificates': m064,
  '2026-11-28-065-calendar-counts': m065,
  '2026-11-28-066-commit-id-collate-c': m066,
  '2026-11-28-067-upload-sessions-user-state': m067,
};

/** The names of the migrations this build knows, in order: the last is the newest schema it can run. */
export function migrationNames(): string[] {
  return Object.keys(migrations);
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url?.startsWith('postgres')) {
    const schema = options.schema ?? 'public';
    const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const pg = await loadPg();
    const bootstrap = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: options.acquireTimeoutMs ?? 10_000,
      ...pgTimeouts(statementTimeoutMs),
    });
    await bootstrap.connect();
    // Two processes starting together may both create it: the loser's duplicate is harmless.
    await bootstrap.query(`create schema if not exists "${schema}"`).catch((error: unknown) => {
      if ((error as { code?: string }).code !== '23505') throw error;
    });
    await bootstrap.end();
    const poolOptions = {
      url: options.url,
      schema,
      max: options.poolSize ?? 10,
      acquireTimeoutMs: options.acquireTimeoutMs ?? 10_000,
      statementTimeoutMs,
      applicationName: options.applicationName ?? pgApplicationName(schema),
      onConnectionError:
        options.onConnectionError ??
        ((error: Error) =>
          process.stderr.write(`PostgreSQL connection lost (a new one is opened when needed): ${error.message}\n`)),
    };
    const pool = createPgPool(pg, poolOptions);
    const db = new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool }, schema) });
    registerPgCopier(db, pool);
    registerPgPool(db, pool);
    const openUnbounded = () =>
      new Kysely<Database>({
        dialect: new SchemaScopedPostgresDialect(
          { pool: createPgPool(pg, { ...poolOptions, max: 1, statementTimeoutMs: 0 }) },
          schema,
        ),
      });
    return { db, dialect: 'postgres', schema, openUnbounded, destroy: () => db.destroy() };
  }
  if (options.sqliteFile !== ':memory:') fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(options.sqliteFile) });
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const db = handle.openUnbounded?.() ?? handle.db;
  try {
    await migrate(db, handle);
  } finally {
    if (db !== handle.db) await db.destroy();
  }
}

async function migrate(db: Kysely<Database>, handle: DatabaseHandle): Promise<void> {
  // On PostgreSQL the bookkeeping tables live in our schema: Kysely looks for them across every schema
  // otherwise, and would skip creating its lock table when another schema on the server has one.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(handle.dialect === 'postgres' ? { migrationTableSchema: handle.schema } : {}),
  });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely creates its bookkeeping tables before taking its lock; a process starting at the same
  // moment may lose that race with a duplicate-key error. The second attempt finds them and waits on the lock.
  for (let attempt = 0; attempt < 3 && (error as { code?: string } | undefined)?.code === '23505'; attempt += 1) {
    ({ error, results } = await migrator.migrateToLatest());
  }
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/** Applies the migrations up to and including `name` (tests of a migration's data changes start there). */
export async function migrateUpTo(handle: DatabaseHandle, name: string): Promise<void> {
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    ...(handle.dialect === 'postgres' ? { migrationTableSchema: handle.schema } : {}),
  });
  const { error, results } = await migrator.migrateTo(name);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed)
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
}

/** Drops a PostgreSQL schema (tests isolate each run in one). */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
}

export { sql };
