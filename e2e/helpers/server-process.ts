import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropPostgresSchema, type DialectName } from '../../apps/server/src/db/database.ts';
import { TEST_POSTGRES_URL, testDialects } from '../../apps/server/test/helpers/dialects.ts';
import { startMainProcess } from '../../apps/server/test/helpers/main-process.ts';
import { copyMigratedSqlite, createMigratedPostgresSchema } from '../../apps/server/test/helpers/migrated-template.ts';

export const E2E_ADMIN = { username: 'admin', password: 'admin-e2e-pass' };

export interface ServerProcess {
  url: string;
  dataDir: string;
  /** The database it runs on. */
  database: DialectName;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  /** SQLite under DATA_DIR (the default, as `npm start`), or a fresh schema of the test PostgreSQL. */
  database?: DialectName;
}

/** The databases browser scenarios that depend on the server's storage run on (TEST_DATABASES, as the server suite). */
export function e2eDatabases(): DialectName[] {
  return testDialects();
}

/**
 * The screen sizes (or size-bound cases) a scenario runs at on `database`. With both databases asked for, each
 * size runs on one of them, in turn — the first (the phone) on PostgreSQL, the next on SQLite — so every size and
 * every database is seen, not every pair of them: what differs between the databases is the server's queries,
 * which do not depend on the width of the window. With one database asked for, every size runs on it.
 */
export function sizesFor<T>(database: DialectName, sizes: readonly T[]): T[] {
  const databases = e2eDatabases();
  if (databases.length < 2) return [...sizes];
  const order = ['postgres', 'sqlite'].filter((name) => databases.includes(name as DialectName));
  return sizes.filter((_, index) => order[index % order.length] === database);
}

/** Starts the real server as `npm start` would (the compiled server and web app, a fresh DATA_DIR; SQLite there, or PostgreSQL when asked). */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const database = options.database ?? 'sqlite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-'));
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  // Several processes share PostgreSQL, so the key comes from the environment there (as docs/operations.md says).
  const databaseEnv =
    database === 'postgres'
      ? { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: schema, SECRET_KEY: randomBytes(32).toString('hex') }
      : {};
  // A migrated copy, as the server suite's servers get (its start then finds no migration to run); a test that
  // brings its own DATABASE_URL (two processes migrating one schema together) starts from nothing.
  if (env.DATABASE_URL === undefined) {
    if (database === 'postgres') await createMigratedPostgresSchema(schema);
    else await copyMigratedSqlite(path.join(dataDir, 'release.db'));
  }
  const server = await startMainProcess(
    {
      DATA_DIR: dataDir,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ...databaseEnv,
      ...env,
    },
    { compiled: true },
  );
  return {
    url: server.url,
    dataDir,
    database,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (database === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
    },
  };
}
