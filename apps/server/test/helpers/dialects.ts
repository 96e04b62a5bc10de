import type { DialectName } from '../../src/db/database.ts';

/**
 * The databases every server test runs on. TEST_DATABASES=sqlite,postgres (the default) runs both;
 * when PostgreSQL is asked for and unreachable, the tests fail: they never skip.
 */
export function testDialects(): DialectName[] {
  const raw = process.env.TEST_DATABASES ?? 'sqlite,postgres';
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (name !== 'sqlite' && name !== 'postgres') throw new Error(`TEST_DATABASES: unknown database "${name}"`);
  }
  return names as DialectName[];
}

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
