import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogCalendar } from '@release/contract';
import type { SourceCommit } from '../src/integrations/source-commit.ts';
import { createCommitLogsRepository } from '../src/modules/commit-logs/commit-logs.repository.ts';
import type { WorkflowRecord } from '../src/modules/workflows/workflows.repository.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A viewer at UTC+8: its midnights cut UTC days, so those days are read from the hour counts. */
const SHANGHAI = 8 * HOUR;
const START = Date.UTC(2026, 0, 1);

function commit(tag: string, i: number): SourceCommit {
  return {
    commitId: `${tag}${String(i).padStart(38, '0')}`,
    branch: 'main',
    authorName: i % 3 === 0 ? 'alice' : 'bob',
    authorEmail: null,
    // Every 97 minutes from 2026-01-01: about 15 a day, across 45 days and their UTC and UTC+8 midnights.
    commitTime: START + i * 97 * 60_000,
    message: `fix: ${tag}/${i}`,
    tags: [],
    tagSummary: [],
    url: null,
    files: { added: [], modified: [], removed: [] },
  };
}

/**
 * The per-day and per-hour counts (migration 065) follow every write of the items — ingest, a sync bringing commits
 * already stored, hiding and showing by the committer filter, a workflow's removal — and the unfiltered calendar,
 * which reads them, counts what the items are.
 */
describe.each(testDialects())('the calendar counts tables on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  const flows: Record<string, WorkflowRecord> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    const appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'game', appType: 'unity', password: '135790', path: 'game' },
      })
    ).body.data.appId;
    for (const tab of ['客户端', '服务器']) {
      const body = {
        appId,
        tabName: tab,
        contentType: 'default',
        repoType: 'git',
        repoPath: `https://git.example.com/${tab}.git`,
      };
      const id = (await server.request<{ id: number }>('POST', '/api/workflow', { token: admin, body })).body.data.id;
      const record = await server.built.core.shared.workflows.findById(id);
      if (!record) throw new Error('workflow missing');
      flows[tab] = record;
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Both tables hold exactly what a GROUP BY of the items gives (no slot left at 0). */
  const expectTablesMatchItems = async () => {
    for (const [table, unit] of [
      ['commit_log_days', DAY],
      ['commit_log_hours', HOUR],
    ] as const) {
      const items = await server.db
        .selectFrom('commit_logs')
        .select(['workflow_id', 'is_filtered', 'commit_time'])
        .execute();
      const expected = new Map<string, number>();
      for (const i of items) {
        const key = `${i.workflow_id}/${i.is_filtered}/${Math.floor(Number(i.commit_time) / unit)}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
      const rows = await server.db.selectFrom(table).selectAll().execute();
      const stored = new Map(rows.map((r) => [`${r.workflow_id}/${r.is_filtered}/${r.slot}`, Number(r.n)]));
      expect(stored, table).toEqual(expected);
    }
  };

  /** The calendar's cells, and the same cells counted from the items the list route shows. */
  const calendarAndItems = async (ids: number[], bounds: number[], onlyCliff: boolean) => {
    const query = `workflowIds=${ids.join(',')}&bounds=${bounds.join(',')}&onlyCliff=${onlyCliff}`;
    const res = await server.request<CommitLogCalendar>('GET', `/api/commit_log_calendar?${query}`, { token: admin });
    expect(res.status).toBe(200);
    const items = await server.db
      .selectFrom('commit_logs')
      .select('commit_time')
      .where('workflow_id', 'in', ids)
      .where('is_filtered', 'in', onlyCliff ? [0] : [0, 1])
      .execute();
    const totals = bounds.slice(1).map(() => 0);
    for (const { commit_time } of items) {
      const cell = bounds.findLastIndex((b) => b <= Number(commit_time));
      if (cell >= 0 && cell < totals.length) totals[cell] = (totals[cell] ?? 0) + 1;
    }
    return { drawn: res.body.data.cells.map((c) => c.total), counted: totals };
  };

  /** A month of UTC+8 days, the same of UTC days, and a UTC+8 year by month (whole UTC days and cut ones). */
  const windows = () => {
    const local = Array.from({ length: 32 }, (_, i) => START - SHANGHAI + (i + 3) * DAY);
    const utc = Array.from({ length: 32 }, (_, i) => START + (i + 10) * DAY);
    const year = Array.from({ length: 13 }, (_, m) => Date.UTC(2026, m - 1, 1) - SHANGHAI);
    return [local, utc, year];
  };
  const expectCalendarsExact = async (ids: number[]) => {
    for (const bounds of windows())
      for (const onlyCliff of [true, false]) {
        const { drawn, counted } = await calendarAndItems(ids, bounds, onlyCliff);
        expect(drawn, `${bounds[0]} onlyCliff=${onlyCliff}`).toEqual(counted);
      }
  };

  it('a first sync, and a re-sync bringing the same commits again with a few new, are counted once each', async () => {
    const ingest = server.built.core.shared.ingest;
    const client = Array.from({ length: 700 }, (_, i) => commit('c', i));
    await ingest.ingestCommits(flows.客户端 as WorkflowRecord, client);
    await ingest.ingestCommits(
      flows.服务器 as WorkflowRecord,
      Array.from({ length: 40 }, (_, i) => commit('s', i * 7)),
    );
    await expectTablesMatchItems();
    // The same 700 and 20 new: only the new are stored and counted.
    await ingest.ingestCommits(flows.客户端 as WorkflowRecord, [
      ...client,
      ...Array.from({ length: 20 }, (_, i) => commit('c', 700 + i)),
    ]);
    const n = await server.db
      .selectFrom('commit_log_days')
      .select((eb) => eb.fn.sum<number>('n').as('n'))
      .where('workflow_id', '=', flows.客户端?.id ?? 0)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(720);
    await expectTablesMatchItems();
    await expectCalendarsExact([flows.客户端?.id ?? 0]);
    await expectCalendarsExact([flows.客户端?.id ?? 0, flows.服务器?.id ?? 0]);
  });

  it('hiding and showing by the committer filter moves the counts between shown and hidden', async () => {
    const ingest = server.built.core.shared.ingest;
    const workflow = flows.客户端 as WorkflowRecord;
    // Only alice's: two thirds hidden.
    expect(await ingest.refilter({ ...workflow, committers: ['alice'] })).toBe(480);
    await expectTablesMatchItems();
    // One cell over the whole history (whole UTC days): alice's 240 shown, all 720 with the hidden.
    const whole = [START, START + 60 * DAY];
    expect((await calendarAndItems([workflow.id], whole, true)).drawn).toEqual([240]);
    expect((await calendarAndItems([workflow.id], whole, false)).drawn).toEqual([720]);
    await expectCalendarsExact([workflow.id, flows.服务器?.id ?? 0]);
    expect(await ingest.refilter({ ...workflow, committers: [] })).toBe(480);
    await expectTablesMatchItems();
    await expectCalendarsExact([workflow.id]);
  });

  it('a bulk store (PostgreSQL: COPY, from 500 rows) is counted like a sync', async () => {
    const workflow = flows.服务器 as WorkflowRecord;
    const rows = Array.from({ length: 600 }, (_, i) => ({
      app_id: workflow.app_id,
      workflow_id: workflow.id,
      commit_id: `b${String(i).padStart(39, '0')}`,
      commit_time: START + i * 41 * 60_000,
      branch: null,
      tag_name: null,
      tag_summary: '[]',
      commit_message: `bulk ${i}`,
      description: '',
      file_urls: '[]',
      remark: 'carol',
      author_email: null,
      source_url: null,
      app_version_id: null,
      metadata: null,
      is_filtered: i % 4 === 0 ? 1 : 0,
      create_time: START,
      update_time: START,
    }));
    expect(await createCommitLogsRepository(server.db).insertNew(rows)).toBe(600);
    await expectTablesMatchItems();
    await expectCalendarsExact([workflow.id, flows.客户端?.id ?? 0]);
  });

  it("a workflow's removal takes its counts with its items; the other's stay", async () => {
    const removed = flows.客户端?.id ?? 0;
    const res = await server.request('DELETE', `/api/workflow?id=${removed}`, { token: admin });
    expect(res.status).toBe(200);
    for (const table of ['commit_log_days', 'commit_log_hours'] as const)
      expect(await server.db.selectFrom(table).select('slot').where('workflow_id', '=', removed).execute()).toEqual([]);
    await expectTablesMatchItems();
    await expectCalendarsExact([flows.服务器?.id ?? 0]);
  });
});
