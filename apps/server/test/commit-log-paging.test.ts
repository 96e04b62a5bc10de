import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem } from '@release/contract';
import type { SourceCommit } from '../src/integrations/source-commit.ts';
import { pageIds } from '../src/modules/commit-logs/commit-log-page.query.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

type Page = { list: CommitLogItem[]; hasMore: boolean; nextCursor: string | null };
const MINUTE = 60_000;
const base = Date.UTC(2026, 10, 1, 8);

/** Four commits share each minute, so equal commit times meet inside a workflow and across workflows. */
function commit(workflow: number, i: number, overrides: Partial<SourceCommit> = {}): SourceCommit {
  return {
    commitId: `w${workflow}-${String(i).padStart(36, '0')}`,
    branch: 'main',
    authorName: i % 5 === 0 ? 'bob' : 'alice',
    authorEmail: null,
    commitTime: base + Math.floor(i / 4) * MINUTE,
    message: i % 7 === 3 ? `Merge branch 'x${i}' into main` : `fix: ${workflow}/${i}`,
    tags: [],
    tagSummary: [],
    url: null,
    files: { added: [], modified: [], removed: [] },
    ...overrides,
  };
}

/** What the page must show: newest first by (commit time, id), the id breaking ties. */
const newestFirst = (a: CommitLogItem, b: CommitLogItem) => b.commitTime - a.commitTime || b.id - a.id;

// The paths of the page query (commit-log-page.query.ts): merged reads per workflow or per app, row-value cursors.
describe.each(testDialects())('paging update items across workflows and apps on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let viewer: { userId: number; token: string };
  const workflowIds: number[] = [];
  const apps: number[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    for (const [index, path] of ['game', 'tool', 'hidden'].entries()) {
      const distributeUsers = index < 2 ? [{ userId: viewer.userId, permit: 'view' }] : [];
      apps.push(
        (
          await server.request<{ appId: number }>('POST', '/api/app', {
            token: admin,
            body: { appName: path, appType: 'unity', password: '135790', path, distributeUsers },
          })
        ).body.data.appId,
      );
    }
    const create = async (appId: number, tabName: string) =>
      (
        await server.request<{ id: number }>('POST', '/api/workflow', {
          token: admin,
          body: {
            appId,
            contentType: 'default',
            tabName,
            repoType: 'git',
            repoPath: `https://git.example.com/${tabName}.git`,
          },
        })
      ).body.data.id;
    workflowIds.push(
      await create(apps[0] ?? 0, 'client'),
      await create(apps[0] ?? 0, 'server'),
      await create(apps[0] ?? 0, 'art'),
    );
    const toolFlow = await create(apps[1] ?? 0, 'tool');
    const hiddenFlow = await create(apps[2] ?? 0, 'hidden');
    const rows = await server.built.core.shared.workflows.findByIds(
      (await server.db.selectFrom('workflows').select('id').execute()).map((w) => w.id),
    );
    const ingest = async (id: number, commits: SourceCommit[]) => {
      const workflow = rows.find((w) => w.id === id);
      if (!workflow) throw new Error('workflow missing');
      await server.built.core.shared.ingest.ingestCommits(workflow, commits);
    };
    // Interleaved so that ids do not follow commit time: the tie on commit time is broken by id, across workflows.
    for (const [n, id] of [workflowIds[2], workflowIds[0], workflowIds[1], toolFlow, hiddenFlow].entries()) {
      await ingest(
        id ?? 0,
        Array.from({ length: 23 + n * 4 }, (_, i) => commit(n, i)),
      );
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = async (path: string, query: string, token = admin) => {
    const res = await server.request<Page>('GET', `${path}?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  /** Every item by following nextCursor, `size` at a time. */
  const walk = async (path: string, query: string, size: number, token = admin) => {
    const seen: CommitLogItem[] = [];
    let cursor = '';
    for (let pages = 0; pages < 100; pages += 1) {
      const page = await get(path, `${query}&pageSize=${size}${cursor ? `&cursor=${cursor}` : ''}`, token);
      seen.push(...page.list);
      expect(page.hasMore).toBe(page.nextCursor !== null);
      if (!page.nextCursor) return seen;
      cursor = page.nextCursor;
    }
    throw new Error('the cursor never ended');
  };
  const byPageNo = async (path: string, query: string, size: number, token = admin) => {
    const seen: CommitLogItem[] = [];
    for (let pageNo = 1; pageNo < 100; pageNo += 1) {
      const page = await get(path, `${query}&pageSize=${size}&pageNo=${pageNo}`, token);
      seen.push(...page.list);
      if (!page.hasMore) return seen;
    }
    throw new Error('pageNo never ended');
  };

  it('merges the summary newest first with ties broken by id, the same by cursor, by pageNo and in one page', async () => {
    for (const onlyCliff of [true, false]) {
      const query = `workflowIds=${workflowIds.join(',')}&onlyCliff=${onlyCliff}`;
      const whole = (await get('/api/commit_log_list', `${query}&pageSize=200`)).list;
      // 23 + 27 + 31 commits, of which 3 + 4 + 4 merges.
      expect(whole).toHaveLength(onlyCliff ? 81 - 11 : 81);
      expect(whole.map((l) => l.id)).toEqual([...whole].sort(newestFirst).map((l) => l.id));
      expect(new Set(whole.map((l) => l.workflowId))).toEqual(new Set(workflowIds));
      expect(
        whole.some(
          (l, i) => i > 0 && whole[i - 1]?.commitTime === l.commitTime && whole[i - 1]?.workflowId !== l.workflowId,
        ),
      ).toBe(true);
      for (const size of [1, 3, 7]) {
        expect((await walk('/api/commit_log_list', query, size)).map((l) => l.id)).toEqual(whole.map((l) => l.id));
        expect((await byPageNo('/api/commit_log_list', query, size)).map((l) => l.id)).toEqual(whole.map((l) => l.id));
      }
    }
  });

  it('lists one workflow or a committer with hidden items too: merges and shown commits interleaved in time order, by cursor and by pageNo', async () => {
    for (const [path, query] of [
      ['/api/commit_log_list', `workflowIds=${workflowIds[0]}`],
      ['/api/user_commit_log_list', 'remark=bob'],
    ] as const) {
      const shown = (await get(path, `${query}&pageSize=200`)).list;
      const whole = (await get(path, `${query}&onlyCliff=false&pageSize=200`)).list;
      const hidden = whole.filter((l) => !shown.some((s) => s.id === l.id));
      expect(hidden.length).toBeGreaterThan(0);
      expect(whole.map((l) => l.id)).toEqual([...whole].sort(newestFirst).map((l) => l.id));
      // A hidden item sits between shown ones, not after all of them.
      expect(whole.findIndex((l) => hidden.includes(l))).toBeLessThan(whole.length - hidden.length);
      for (const size of [1, 4]) {
        expect((await walk(path, `${query}&onlyCliff=false`, size)).map((l) => l.id)).toEqual(whole.map((l) => l.id));
        expect((await byPageNo(path, `${query}&onlyCliff=false`, size)).map((l) => l.id)).toEqual(
          whole.map((l) => l.id),
        );
      }
    }
  });

  it('answers pageNo down to the first 2,000 items and refuses deeper pages, in Chinese, pointing to the cursor', async () => {
    const query = `workflowIds=${workflowIds.join(',')}`;
    // Offset 2,000 (the deepest allowed): past the 70 items, an empty last page.
    const deepest = await get('/api/commit_log_list', `${query}&pageSize=100&pageNo=21`);
    expect(deepest).toEqual({ list: [], hasMore: false, nextCursor: null });
    for (const [path, q] of [
      ['/api/commit_log_list', query],
      ['/api/user_commit_log_list', 'remark=bob'],
    ] as const) {
      const res = await server.request('GET', `${path}?${q}&pageSize=100&pageNo=22`, { token: admin });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(
        '页码过深：每页 100 条时 pageNo 最多为 21，更早的记录请用上一页返回的 nextCursor 作为 cursor 继续翻页',
      );
    }
    // The cursor reads on at any depth: from the 31st item on, as pageNo 2 of 30 shows it.
    const first = await get('/api/commit_log_list', `${query}&pageSize=30`);
    const second = await get('/api/commit_log_list', `${query}&pageSize=30&pageNo=2`);
    expect((await get('/api/commit_log_list', `${query}&pageSize=30&cursor=${first.nextCursor}`)).list).toEqual(
      second.list,
    );
  });

  it('merges in groups when there are more sources than one compound select should hold', async () => {
    for (const filter of [
      { workflowIds, onlyCliff: true, offset: 0, limit: 9 },
      { workflowIds, onlyCliff: false, offset: 17, limit: 5 },
      { workflowIds, onlyCliff: true, offset: 0, limit: 4, before: { commitTime: base + 3 * MINUTE, id: 1_000_000 } },
    ]) {
      const ids = async (fanIn?: number) =>
        (
          await server.db
            .selectFrom(pageIds(server.db, filter, fanIn))
            .select('page.id')
            .execute()
        ).map((r) => r.id);
      const single = await ids();
      expect(single).toHaveLength(filter.limit + 1);
      expect(await ids(2)).toEqual(single);
    }
  });

  it('keeps a time window and a cursor together, whichever is tighter', async () => {
    const query = `workflowIds=${workflowIds.join(',')}&startTime=${base + 2 * MINUTE}&endTime=${base + 5 * MINUTE}`;
    const whole = (await get('/api/commit_log_list', `${query}&pageSize=200`)).list;
    expect(whole.every((l) => l.commitTime >= base + 2 * MINUTE && l.commitTime < base + 5 * MINUTE)).toBe(true);
    expect((await walk('/api/commit_log_list', query, 4)).map((l) => l.id)).toEqual(whole.map((l) => l.id));
    // A cursor newer than the window (a page of the month before) leaves the window's end in charge.
    const newer = (await get('/api/commit_log_list', `workflowIds=${workflowIds.join(',')}&pageSize=1`)).list[0];
    const fromNewer = await get(
      '/api/commit_log_list',
      `${query}&pageSize=200&cursor=${newer?.commitTime}:${newer?.id}`,
    );
    expect(fromNewer.list.map((l) => l.id)).toEqual(whole.map((l) => l.id));
  });

  it('walks a committer trend over the apps the viewer can see, merged per app', async () => {
    const everything = (await get('/api/user_commit_log_list', 'remark=bob&pageSize=200')).list;
    expect(new Set(everything.map((l) => l.appId))).toEqual(new Set(apps));
    const visible = everything.filter((l) => l.appId !== apps[2]);
    const seen = (await get('/api/user_commit_log_list', 'remark=bob&pageSize=200', viewer.token)).list;
    expect(seen.map((l) => l.id)).toEqual(visible.map((l) => l.id));
    expect(seen.map((l) => l.id)).toEqual([...seen].sort(newestFirst).map((l) => l.id));
    for (const size of [1, 4]) {
      expect((await walk('/api/user_commit_log_list', 'remark=bob', size, viewer.token)).map((l) => l.id)).toEqual(
        visible.map((l) => l.id),
      );
      expect((await byPageNo('/api/user_commit_log_list', 'remark=bob', size, viewer.token)).map((l) => l.id)).toEqual(
        visible.map((l) => l.id),
      );
    }
    const all = (await get('/api/user_commit_log_list', 'remark=bob&onlyCliff=false&pageSize=200', viewer.token)).list;
    expect(all.length).toBeGreaterThan(seen.length);
    expect(
      (await walk('/api/user_commit_log_list', 'remark=bob&onlyCliff=false', 5, viewer.token)).map((l) => l.id),
    ).toEqual(all.map((l) => l.id));
  });

  it("gives the trend calendar a committer's items of its window in the apps the viewer can see, each app's count what the list shows for that project", async () => {
    const from = base + 2 * MINUTE;
    const to = base + 6 * MINUTE;
    const perProject = (items: CommitLogItem[]) => {
      const counts: Record<string, number> = {};
      for (const l of items) counts[l.appName] = (counts[l.appName] ?? 0) + 1;
      return counts;
    };
    for (const [token, expected] of [
      [viewer.token, { game: 6, tool: 2 }],
      [admin, { game: 6, tool: 2, hidden: 2 }],
    ] as const) {
      // The calendar follows nextCursor through its month (200 at a time; 3 here, so the cursor meets the window's end).
      const calendar = await walk('/api/user_commit_log_list', `remark=bob&startTime=${from}&endTime=${to}`, 3, token);
      const list = (await get('/api/user_commit_log_list', 'remark=bob&pageSize=200', token)).list;
      expect(calendar.map((l) => l.id)).toEqual(
        list.filter((l) => l.commitTime >= from && l.commitTime < to).map((l) => l.id),
      );
      // bob's i = 15 and 20 of each workflow (i = 10 is a merge, hidden): the trend picks a project by appName.
      expect(perProject(calendar)).toEqual(expected);
    }
  });

  it('names the committers of the apps the viewer can see', async () => {
    const names = await server.request<string[]>('GET', '/api/workflow/users', { token: viewer.token });
    expect(names.body.data).toEqual(['alice', 'bob']);
    const outsider = await server.createUser({ username: 'outsider', roleLevel: 20 });
    expect((await server.request<string[]>('GET', '/api/workflow/users', { token: outsider.token })).body.data).toEqual(
      [],
    );
  });
});
