import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { dropPostgresSchema, migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';

// Test files run in parallel, each in its own schema that it drops when done: one file's migration must not
// depend on another file's schema still being there.
// (On SQLite each test database is its own file or memory: the same test holds trivially.)
describe.each(testDialects())('schemas on %s', (dialect) => {
  const opened: DatabaseHandle[] = [];
  const open = async () => {
    const url = dialect === 'postgres' ? TEST_POSTGRES_URL : undefined;
    const handle = await openDatabase({ url, schema: `t_${randomBytes(6).toString('hex')}`, sqliteFile: ':memory:' });
    opened.push(handle);
    return handle;
  };
  afterEach(async () => {
    for (const handle of opened.splice(0)) {
      await handle.destroy().catch(() => undefined);
      if (handle.dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, handle.schema!);
    }
  });

  it('migrates a schema while a neighbour is dropped, and sees only its own tables', async () => {
    const mine = await open();
    const neighbour = await open();
    await migrateToLatest(neighbour);
    await Promise.all([
      migrateToLatest(mine),
      neighbour
        .destroy()
        .then(() => (dialect === 'postgres' ? dropPostgresSchema(TEST_POSTGRES_URL, neighbour.schema!) : undefined)),
    ]);
    const tables = await mine.db.introspection.getTables();
    if (dialect === 'postgres') expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([mine.schema]));
    expect(tables.map((t) => t.name)).toContain('apps');
    // Migrating again is a no-op that still finds the migration tables of this schema.
    await migrateToLatest(mine);
    const count = await mine.db
      .selectFrom('apps')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});
