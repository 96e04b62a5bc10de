import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropPostgresSchema, type DialectName } from '../../apps/server/src/db/database.ts';
import { TEST_POSTGRES_URL, testDialects } from '../../apps/server/test/helpers/dialects.ts';
import { startMainProcess } from '../../apps/server/test/helpers/main-process.ts';

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
