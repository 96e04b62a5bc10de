import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { dropPostgresSchema, migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { TEST_POSTGRES_URL } from './dialects.ts';

/**
 * Every test server starts on a freshly migrated database, and migrating is the same work each time: on
 * PostgreSQL one transaction per migration (1–3 s on a loaded 2-core machine, for ~250 servers a run), on SQLite
 * a few hundred milliseconds. A test process migrates once — a template schema it dumps with pg_dump, a template
 * SQLite file — and hands every later server a copy: the dump replayed in one round trip, the file copied. The
 * template is made by this build's migrations in this run, so a copy is exactly what migrating would give; the
 * server's own `migrateToLatest` then finds nothing to do. Tests of the migrations themselves start from an empty
 * schema and do not come here.
 */

const execFileAsync = promisify(execFile);
const PLACEHOLDER = '__release_test_schema__';

let postgresTemplate: Promise<string | null> | undefined;
let sqliteTemplate: Promise<string> | undefined;

/** Creates `schema` in the test PostgreSQL database, migrated to the newest migration. */
export async function createMigratedPostgresSchema(schema: string): Promise<void> {
  postgresTemplate ??= dumpMigratedSchema();
  const sql = await postgresTemplate;
  if (sql === null) {
    const handle = await openDatabase({ url: TEST_POSTGRES_URL, schema, sqliteFile: ':memory:' });
    try {
      await migrateToLatest(handle);
    } finally {
      await handle.destroy();
    }
    return;
  }
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`BEGIN;\n${sql.replaceAll(PLACEHOLDER, schema)}\nCOMMIT;`);
  } finally {
    await client.end();
  }
}

/** Writes a migrated SQLite database to `file`. */
export async function copyMigratedSqlite(file: string): Promise<void> {
  sqliteTemplate ??= migrateSqliteTemplate();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(await sqliteTemplate, file);
}

/** The SQL that recreates a migrated schema (tables, indexes, sequences, the migrations' own rows), or null without pg_dump. */
async function dumpMigratedSchema(): Promise<string | null> {
  const token = `tpl_${randomBytes(6).toString('hex')}`;
  const handle = await openDatabase({ url: TEST_POSTGRES_URL, schema: token, sqliteFile: ':memory:' });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.destroy();
  }
  try {
    const { stdout } = await execFileAsync(
      'pg_dump',
      ['--dbname', TEST_POSTGRES_URL, '--schema', token, '--inserts', '--no-owner', '--no-privileges'],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    // psql meta-commands (pg_dump's \restrict guard) and comments are not SQL; the rest runs as one query.
    const sql = stdout
      .split('\n')
      .filter((line) => !line.startsWith('\\') && !line.startsWith('--'))
      .join('\n');
    if (!sql.includes(`CREATE SCHEMA ${token};`)) throw new Error('pg_dump printed no schema');
    return sql.replaceAll(token, PLACEHOLDER);
  } catch (error) {
    process.stderr.write(
      `pg_dump could not copy the migrated schema (${(error as Error).message.split('\n')[0]}): every test server migrates its own (slower)\n`,
    );
    return null;
  } finally {
    await dropPostgresSchema(TEST_POSTGRES_URL, token);
  }
}

async function migrateSqliteTemplate(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-test-template-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'release.db');
  const handle = await openDatabase({ sqliteFile: file });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.destroy();
  }
  return file;
}
