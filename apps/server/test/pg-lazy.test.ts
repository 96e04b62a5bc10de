import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const database = path.resolve(import.meta.dirname, '../src/db/database.ts');

/**
 * Runs `body` in a fresh Node process (a module loaded once stays loaded: this process has pg from its helpers) and
 * answers which of pg and pg-copy-streams it loaded.
 */
function loadedAfter(body: string): { pg: boolean; copyStreams: boolean } {
  const script = `
    import { createRequire } from 'node:module';
    const { openDatabase, migrateToLatest } = await import(${JSON.stringify(database)});
    ${body}
    const require = createRequire(${JSON.stringify(database)});
    const cached = (name) => require.resolve(name) in require.cache;
    process.stdout.write(JSON.stringify({ pg: cached('pg'), copyStreams: cached('pg-copy-streams') }));
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.resolve(import.meta.dirname, '..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { pg: boolean; copyStreams: boolean };
}

describe('the PostgreSQL driver is loaded only by a server on PostgreSQL (idle memory, issue 23)', () => {
  it('a database on SQLite, migrated, never loads pg or pg-copy-streams', () => {
    const loaded = loadedAfter(`
      const handle = await openDatabase({ sqliteFile: ':memory:' });
      await migrateToLatest(handle);
      await handle.destroy();
    `);
    expect(loaded).toEqual({ pg: false, copyStreams: false });
  });

  it('importing the database module alone loads neither', () => {
    expect(loadedAfter('')).toEqual({ pg: false, copyStreams: false });
  });
});
