import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogsTable, Insertable } from '../src/db/schema.ts';
import { createCommitLogsRepository } from '../src/modules/commit-logs/commit-logs.repository.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

/** More rows than PostgreSQL's COPY threshold (500): a sync's batch, stored in bulk. */
const ROWS = 600;
/** Text a COPY must carry as it is: its own separators, escapes and NULL marker, CR, emoji and CJK. */
const AWKWARD = ['tab\there', 'line 1\nline 2\r\nline 3', 'back\\slash \\N \\t', '\\N', '', '🚀 发布 1.4.2 (302)'];

describe.each(testDialects())('storing many update items at once on %s', (dialect) => {
  let server: TestServer;
  let appId: number;
  let workflowId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'B', appType: 'unity', password: '135790', path: 'bulk' },
      })
    ).body.data.appId;
    const body = {
      appId,
      contentType: 'default',
      tabName: '批量',
      repoType: 'git',
      repoPath: 'https://git.example.test/bulk.git',
      defaultBranch: '',
    };
    workflowId = (await server.request<{ id: number }>('POST', '/api/workflow', { token: admin, body })).body.data.id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  function row(i: number, message = `commit ${i} ${AWKWARD[i % AWKWARD.length]}`): Insertable<CommitLogsTable> {
    return {
      app_id: appId,
      workflow_id: workflowId,
      commit_id: `c${String(i).padStart(6, '0')}`,
      commit_time: 1_700_000_000_000 + i * 1000,
      branch: i % 3 === 0 ? null : 'release/2.x',
      tag_name: i % 100 === 0 ? `v${i}` : null,
      tag_summary: JSON.stringify(i % 100 === 0 ? [AWKWARD[1]] : []),
      commit_message: message,
      description: '',
      file_urls: '[]',
      remark: AWKWARD[(i + 1) % AWKWARD.length] || '米拉',
      author_email: i % 2 === 0 ? null : 'mira@corp.test',
      source_url: null,
      app_version_id: null,
      metadata:
        i % 5 === 0 ? null : JSON.stringify({ files: { added: [`dir\\${i}\tx.txt`], modified: [], removed: [] } }),
      is_filtered: i % 7 === 0 ? 1 : 0,
      create_time: 1_700_000_500_000,
      update_time: 1_700_000_500_000,
    };
  }
  const stored = async (from: number, to: number) =>
    server.db
      .selectFrom('commit_logs')
      .selectAll()
      .where('workflow_id', '=', workflowId)
      .where('commit_id', '>=', `c${String(from).padStart(6, '0')}`)
      .where('commit_id', '<', `c${String(to).padStart(6, '0')}`)
      .orderBy('commit_id')
      .execute();

  it('stores every row exactly as given, awkward text and NULLs included, and answers how many', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => row(i));
    expect(await createCommitLogsRepository(server.db).insertNew(rows)).toBe(ROWS);
    const back = await stored(0, ROWS);
    expect(back).toHaveLength(ROWS);
    back.forEach((item, i) => {
      const { id, ...rest } = item;
      expect(id).toBeGreaterThan(0);
      expect(rest).toEqual(rows[i]);
    });
    // Oldest first in, so a later commit never gets a smaller id than an earlier one of the same batch.
    expect(back.map((item) => item.id)).toEqual([...back.map((item) => item.id)].sort((a, b) => a - b));
  });

  it('a batch holding items stored meanwhile (another sync, a webhook) stores the rest and leaves those as they were', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => row(ROWS - 10 + i, `again ${i}`));
    expect(await createCommitLogsRepository(server.db).insertNew(rows)).toBe(ROWS - 10);
    const overlap = await stored(ROWS - 10, ROWS);
    expect(overlap.map((item) => item.commit_message)).toEqual(
      Array.from({ length: 10 }, (_, k) => row(ROWS - 10 + k).commit_message),
    );
    const added = await stored(ROWS, 2 * ROWS - 10);
    expect(added.map((item) => item.commit_message)).toEqual(
      Array.from({ length: ROWS - 10 }, (_, k) => `again ${k + 10}`),
    );
    expect(await stored(0, 10 * ROWS)).toHaveLength(2 * ROWS - 10);
  });

  it("inside a caller's transaction the rows join it: rolled back, none is stored", async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => row(10 * ROWS + i));
    await expect(
      server.db.transaction().execute(async (trx) => {
        expect(await createCommitLogsRepository(trx).insertNew(rows)).toBe(ROWS);
        throw new Error('caller gives up');
      }),
    ).rejects.toThrow('caller gives up');
    expect(await stored(10 * ROWS, 11 * ROWS)).toEqual([]);
  });

  it('a changed committer filter re-decides every stored item, over several pages of them', async () => {
    const admin = await server.adminToken();
    const body = {
      appId,
      contentType: 'default',
      tabName: '分页',
      repoType: 'git',
      repoPath: 'https://git.example.test/pages.git',
      defaultBranch: '',
    };
    const id = (await server.request<{ id: number }>('POST', '/api/workflow', { token: admin, body })).body.data.id;
    const workflow = await server.built.core.shared.workflows.findById(id);
    if (!workflow) throw new Error('workflow missing');
    const many = Array.from({ length: 12_000 }, (_, i) => ({
      ...row(i),
      workflow_id: id,
      remark: i % 3 === 0 ? 'Alice' : 'bob',
      commit_message: `commit ${i}`,
      is_filtered: 0,
    }));
    expect(await createCommitLogsRepository(server.db).insertNew(many)).toBe(many.length);
    const hidden = async () =>
      Number(
        (
          await server.db
            .selectFrom('commit_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workflow_id', '=', id)
            .where('is_filtered', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Only alice's (by name, any case): bob's 8,000 are hidden, the three pages of 5,000 each decided.
    expect(await server.built.core.shared.ingest.refilter({ ...workflow, committers: ['alice'] })).toBe(8_000);
    expect(await hidden()).toBe(8_000);
    expect(await server.built.core.shared.ingest.refilter({ ...workflow, committers: [] })).toBe(8_000);
    expect(await hidden()).toBe(0);
  });

  it('answers which of the asked commit ids the workflow has stored, over more ids than one statement takes', async () => {
    const logs = createCommitLogsRepository(server.db);
    const ids = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => `c${String(from + k).padStart(6, '0')}`);
    // Stored so far: c000000…c001189 (the tests above). Asked: 6,000 ids, 1,190 of them stored, case and a longer id apart.
    const asked = [...ids(0, 5_990), 'C000001', 'c0000010', 'c000001 ', ...ids(30_000, 30_007)];
    const known = await logs.knownAmong(workflowId, asked);
    expect([...known].sort()).toEqual(ids(0, 2 * ROWS - 10));
    expect(await logs.knownAmong(workflowId + 1000, asked)).toEqual(new Set());
    expect(await logs.knownAmong(workflowId, [])).toEqual(new Set());
    if (dialect === 'postgres') {
      // Byte order (migration 066): a commit id is compared as bytes, never by the database's locale.
      const column = await sql<{ collation: string }>`select collation_name as collation from information_schema.columns
        where table_schema = current_schema() and table_name = 'commit_logs' and column_name = 'commit_id'`.execute(
        server.db,
      );
      expect(column.rows).toEqual([{ collation: 'C' }]);
    }
  });

  it('rows for a workflow that is gone fail whole: nothing of the batch is stored', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => ({ ...row(20 * ROWS + i), workflow_id: workflowId + 1000 }));
    await expect(createCommitLogsRepository(server.db).insertNew(rows)).rejects.toThrow(/foreign key/i);
    const left = await server.db
      .selectFrom('commit_logs')
      .select('id')
      .where('workflow_id', '=', workflowId + 1000)
      .execute();
    expect(left).toEqual([]);
  });
});
