import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

/**
 * Every upload checks the user's unfinished uploads (the quota). Registered sessions are kept, so the check must find
 * the unfinished ones by user and state, not walk every upload the user (a CI account) ever made.
 */
describe.each(testDialects())('the upload quota check on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server?.close());

  it('finds the unfinished sessions by the user and the state, through an index', async () => {
    const indexes =
      dialect === 'postgres'
        ? await sql<{
            def: string;
          }>`select indexdef as def from pg_indexes where tablename = 'upload_sessions'`.execute(server.db)
        : await sql<{
            def: string;
          }>`select sql as def from sqlite_master where type = 'index' and tbl_name = 'upload_sessions' and sql is not null`.execute(
            server.db,
          );
    const defs = indexes.rows.map((r) => r.def.replace(/"/g, '').toLowerCase());
    expect(defs.some((d) => d.includes('upload_sessions_user_state_idx') && /\(user_id, state\)/.test(d))).toBe(true);
    if (dialect === 'postgres') return;
    // SQLite plans by the schema alone: the user's unfinished sessions are read through that index.
    const plan = await sql<{ detail: string }>`explain query plan
      select count(*), coalesce(sum(file_size), 0) from upload_sessions
      where user_id = ${1} and state in ('issued', 'uploading', 'completed')`.execute(server.db);
    expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(
      /SEARCH upload_sessions USING INDEX upload_sessions_user_state_idx \(user_id=\? AND state=\?\)/,
    );
  });
});
