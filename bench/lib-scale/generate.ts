import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  dropPostgresSchema,
  migrateToLatest,
  openDatabase,
  sql,
  type DatabaseHandle,
  type DialectName,
} from '../../apps/server/src/db/database.ts';
import { buildApp } from '../../apps/server/src/app.ts';
import { createLocalBlobStore } from '../../apps/server/src/storage/local-blob-store.ts';
import { createUrlSigner } from '../../apps/server/src/storage/url-signer.ts';
import { ADMIN } from '../lib/server.ts';
import { createSecretBox } from '../../apps/server/src/lib/secret-box.ts';
import { INSTALL_PASSWORD, tableSql, type Seeded } from './rows-sql.ts';
import { describeSize, membershipsPerUser, type StudioSize } from './size.ts';

export const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A generated studio on disk (SQLite) or in a PostgreSQL schema, and the environment a server needs to run on it. */
export interface Studio {
  dialect: DialectName;
  label: string;
  size: StudioSize;
  dataDir: string;
  /** DATA_DIR, and for PostgreSQL DATABASE_URL, DATABASE_SCHEMA and SECRET_KEY. */
  env: Record<string, string>;
  /** Seconds per step of the load (tables, indexes, analyze). */
  timings: Array<[string, number]>;
  remove(): Promise<void>;
}

/** The tables whose secondary indexes are dropped for the load and rebuilt after it (as a bulk load does). */
const REINDEXED = ['app_versions', 'commit_logs', 'app_users'];

/** Roles and the first admin through the product's own services (as `npm start` makes them). */
async function seed(handle: DatabaseHandle, dataDir: string, secret: string): Promise<Seeded> {
  const clock = { now: () => Date.now() };
  const blobs = createLocalBlobStore({ root: path.join(dataDir, 'blobs'), signer: createUrlSigner(secret), clock });
  const built = await buildApp({
    db: handle.db,
    blobs,
    clock,
    sms: { isReal: false, send: async () => undefined },
    secret,
    mirrorsDir: path.join(dataDir, 'mirrors'),
    robotHosts: { larkOpenBaseUrl: 'http://127.0.0.1:9', wecomBaseUrl: 'http://127.0.0.1:9' },
  });
  try {
    await built.modules.roles.seedDefaults();
    await built.modules.users.ensureFirstAdmin(ADMIN.username, ADMIN.password, () => 'unused');
  } finally {
    await built.app.close();
  }
  const admin = await handle.db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('username', '=', ADMIN.username)
    .executeTakeFirstOrThrow();
  const role = await handle.db.selectFrom('roles').select('id').where('role_level', '=', 20).executeTakeFirstOrThrow();
  const box = createSecretBox(secret);
  return {
    adminId: Number(admin.id),
    roleId: Number(role.id),
    passwordHash: admin.password_hash,
    sealedInstallPassword: box.seal(INSTALL_PASSWORD),
    sealedWebhookSecret: box.seal('scale-webhook-secret'),
  };
}

/** The secondary indexes of `table` as the catalog has them (name and the statement that makes it again). */
async function secondaryIndexes(handle: DatabaseHandle, table: string): Promise<Array<{ name: string; ddl: string }>> {
  if (handle.dialect === 'sqlite') {
    const rows = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(
      handle.db,
    );
    return rows.rows.map((r) => ({ name: r.name, ddl: r.sql }));
  }
  // Not the ones behind a constraint (primary keys, unique constraints): those stay.
  const rows = await sql<{ name: string; ddl: string }>`
    select i.relname as name, pg_get_indexdef(i.oid) as ddl
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = ${handle.schema ?? 'public'} and t.relname = ${table}
      and not exists (select 1 from pg_constraint c where c.conindid = i.oid)`.execute(handle.db);
  return rows.rows;
}

async function timed<T>(timings: Array<[string, number]>, step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  timings.push([step, (performance.now() - started) / 1000]);
  return result;
}

/** Loads the generated rows, indexes dropped during the load and rebuilt from the catalog's own definitions. */
async function load(handle: DatabaseHandle, size: StudioSize, seeded: Seeded, timings: Array<[string, number]>) {
  const { db, dialect } = handle;
  const indexes = (await Promise.all(REINDEXED.map((t) => secondaryIndexes(handle, t)))).flat();
  for (const index of indexes) await sql.raw(`drop index ${JSON.stringify(index.name)}`).execute(db);
  const tables = tableSql(dialect, size, seeded);
  if (dialect === 'sqlite') {
    // The load is one transaction: a rollback journal holds only pages that existed before it, WAL would hold all.
    await sql.raw('pragma foreign_keys = off').execute(db);
    await sql.raw('pragma journal_mode = delete').execute(db);
    await sql.raw('pragma synchronous = off').execute(db);
    await sql.raw('pragma cache_size = -262144').execute(db);
    // Index builds sort 20 million keys: spill to temp files, not memory (the server's connection keeps sorts in memory).
    await sql.raw('pragma temp_store = file').execute(db);
    await db.transaction().execute(async (trx) => {
      for (const table of tables) await timed(timings, table.table, () => sql.raw(table.sql).execute(trx));
    });
    for (const index of indexes) await timed(timings, `index ${index.name}`, () => sql.raw(index.ddl).execute(db));
    await sql.raw('pragma journal_mode = wal').execute(db);
    await sql.raw('pragma synchronous = normal').execute(db);
    await sql.raw('pragma foreign_keys = on').execute(db);
    await sql.raw('pragma temp_store = memory').execute(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    // The rows are generated consistent: no foreign-key trigger per row (superuser setting, this transaction only).
    await sql.raw('set local session_replication_role = replica').execute(trx);
    await sql.raw('set local synchronous_commit = off').execute(trx);
    for (const table of tables) await timed(timings, table.table, () => sql.raw(table.sql).execute(trx));
  });
  await db.transaction().execute(async (trx) => {
    await sql.raw(`set local maintenance_work_mem = '512MB'`).execute(trx);
    for (const index of indexes) await timed(timings, `index ${index.name}`, () => sql.raw(index.ddl).execute(trx));
  });
  // The ids were given explicitly: the sequences go on after them (uploads in the cluster bench insert more).
  for (const table of ['users', 'apps', 'workflows', 'app_versions', 'commit_logs'])
    await sql
      .raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`)
      .execute(db);
  // What autovacuum does within minutes of a load (statistics, the visibility map index-only scans need).
  // Only the loaded tables: a bare VACUUM would walk every schema of the database.
  await timed(timings, 'vacuum analyze', () =>
    sql.raw('vacuum analyze users, apps, app_users, workflows, app_versions, commit_logs').execute(db),
  );
}

/** Counts every generated table: the load must have made exactly the rows the size asks for. */
export async function countRows(handle: DatabaseHandle, size: StudioSize): Promise<Record<string, number>> {
  const expected: Record<string, number> = {
    users: size.users + 1,
    apps: size.apps,
    app_users: size.users * membershipsPerUser(size),
    workflows: size.apps * size.workflowsPerApp,
    app_versions: size.versions,
    commit_logs: size.items,
  };
  const counted: Record<string, number> = {};
  for (const table of Object.keys(expected)) {
    const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(handle.db);
    counted[table] = Number(row.rows[0]?.n ?? -1);
    if (counted[table] !== expected[table])
      throw new Error(`${table}: ${counted[table]} rows generated, ${expected[table]} expected`);
  }
  return counted;
}

/** Makes a studio of `size` through the real migrations; `log` hears each step. */
export async function generateStudio(
  dialect: DialectName,
  size: StudioSize,
  workDir: string,
  label: string,
  log: (line: string) => void,
): Promise<Studio> {
  const dataDir = fs.mkdtempSync(path.join(workDir, `${label}-`));
  const schema = `scale_${label}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const remove = async () => {
    if (dialect === 'postgres') await dropPostgresSchema(POSTGRES_URL, schema).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const timings: Array<[string, number]> = [];
  // The key the seeding stored its secrets with; every server on the studio is given it.
  const secret = randomBytes(32).toString('hex');
  log(`  ${label}: generating ${describeSize(size)} on ${dialect} …`);
  const started = performance.now();
  const handle = await openDatabase({
    url: dialect === 'postgres' ? POSTGRES_URL : undefined,
    schema,
    sqliteFile: path.join(dataDir, 'release.db'),
    statementTimeoutMs: 0,
  });
  try {
    await migrateToLatest(handle);
    const seeded = await seed(handle, dataDir, secret);
    await load(handle, size, seeded, timings);
    await countRows(handle, size);
  } catch (error) {
    await handle.destroy().catch(() => undefined);
    await remove();
    throw error;
  }
  await handle.destroy();
  const seconds = (performance.now() - started) / 1000;
  log(
    `  ${label}: ready in ${seconds.toFixed(0)} s (${timings.map(([step, s]) => `${step} ${s.toFixed(1)} s`).join(', ')})`,
  );
  const env: Record<string, string> = { DATA_DIR: dataDir, SECRET_KEY: secret };
  if (dialect === 'postgres') Object.assign(env, { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema });
  timings.push(['total', seconds]);
  return { dialect, label, size, dataDir, env, timings, remove };
}
