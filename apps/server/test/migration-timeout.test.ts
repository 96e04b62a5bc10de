import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema, migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';

/**
 * DATABASE_STATEMENT_TIMEOUT_MS bounds requests, not migrations: a migration rewriting a large table may run
 * for minutes, and a server whose migration is cancelled does not start at all.
 */
describe.each(testDialects().filter((d) => d === 'postgres'))('migrations under a statement timeout (%s)', () => {
  const schema = `mto_${randomBytes(4).toString('hex')}`;
  let handle: DatabaseHandle | undefined;
  let checker: DatabaseHandle | undefined;
  afterAll(async () => {
    await handle?.destroy();
    await checker?.destroy();
    await dropPostgresSchema(TEST_POSTGRES_URL, schema);
  });

  it('migrates a fresh schema with a 1 ms statement timeout, while queries stay bounded by it', async () => {
    handle = await openDatabase({
      url: TEST_POSTGRES_URL,
      schema,
      sqliteFile: ':memory:',
      statementTimeoutMs: 1,
      onConnectionError: () => undefined,
    });
    await migrateToLatest(handle);
    checker = await openDatabase({ url: TEST_POSTGRES_URL, schema, sqliteFile: ':memory:' });
    const tables = await sql<{
      n: number;
    }>`select count(*)::int as n from information_schema.tables where table_schema = ${schema} and table_name = 'apps'`.execute(
      checker.db,
    );
    expect(tables.rows).toEqual([{ n: 1 }]);
    await expect(sql`select pg_sleep(0.2)`.execute(handle.db)).rejects.toMatchObject({ code: '57014' });
  });
});
