import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarKeyOf, type CommitLogCalendar, type CommitLogItem } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import type { SourceCommit } from '../src/integrations/source-commit.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

type Page = { list: CommitLogItem[]; hasMore: boolean; nextCursor: string | null };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Days as a browser at UTC+8 cuts them: the calendar's cells are the viewer's local days, whatever the server's zone. */
const SHANGHAI = 8 * HOUR;

function commit(tag: string, i: number, time: number, overrides: Partial<SourceCommit> = {}): SourceCommit {
  return {
    commitId: `${tag}${String(i).padStart(38, '0')}`,
    branch: i % 3 === 0 ? 'develop' : 'main',
    authorName: i % 4 === 0 ? 'bob' : 'alice',
    authorEmail: null,
    commitTime: time,
    message: i % 6 === 5 ? `Merge branch 'x${i}' into main` : `fix: ${tag}/${i}`,
    tags: [],
    tagSummary: [],
    url: null,
    files: { added: [], modified: [], removed: [] },
    ...overrides,
  };
}

/** What the console drew from every item of the window before the calendar read existed (commit-calendar.tsx). */
function countedFromList(items: CommitLogItem[], bounds: number[], by: 'app' | 'workflow', project?: string) {
  const cells = bounds.slice(1).map(() => ({ all: new Set<string>(), keys: new Map<string, Set<string>>() }));
  for (const item of items) {
    if (project !== undefined && item.appName !== project) continue;
    const cell = cells[bounds.findLastIndex((b) => b <= item.commitTime)];
    if (!cell) continue;
    const identity = `${item.commitTime}\u0000${item.repoPath ?? ''}\u0000${item.commitId}`;
    const key = calendarKeyOf(item, by);
    cell.keys.set(key, (cell.keys.get(key) ?? new Set()).add(identity));
    cell.all.add(identity);
  }
  return cells.map(({ all, keys }) => ({
    total: all.size,
    counts: [...keys]
      .map(([key, seen]) => ({ key, count: seen.size }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
  }));
}

describe.each(testDialects())('the calendar read (GET /api/commit_log_calendar) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let viewer: { userId: number; token: string };
  const apps: Record<string, number> = {};
  const flows: Record<string, number> = {};
  /** The window: ten local days before today and today, as the month grid asks for them. */
  let days: number[];
  let monthStart: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    for (const [name, visible] of [
      ['game', true],
      ['tool', true],
      ['hidden', false],
    ] as const) {
      const distributeUsers = visible ? [{ userId: viewer.userId, permit: 'view' }] : [];
      apps[name] = (
        await server.request<{ appId: number }>('POST', '/api/app', {
          token: admin,
          body: { appName: name, appType: 'unity', password: '135790', path: name, distributeUsers },
        })
      ).body.data.appId;
    }
    const create = async (app: string, tabName: string, body: Record<string, unknown>) => {
      flows[tabName] = (
        await server.request<{ id: number }>('POST', '/api/workflow', {
          token: admin,
          body: { appId: apps[app], tabName, ...body },
        })
      ).body.data.id;
    };
    const git = (repo: string) => ({
      contentType: 'default',
      repoType: 'git',
      repoPath: `https://git.example.com/${repo}.git`,
    });
    await create('game', '主干', git('client'));
    // The same repository as 主干 (another branch): their copies of a commit are one commit.
    await create('game', '发布', git('client'));
    await create('game', '服务器', git('server'));
    await create('tool', '工具', git('tool'));
    await create('hidden', '秘密', git('secret'));
    await create('game', '安装包', { contentType: 'package', packageType: 'apk' });

    const today = Math.floor((Date.now() + SHANGHAI) / DAY) * DAY - SHANGHAI;
    days = Array.from({ length: 12 }, (_, i) => today + (i - 10) * DAY);
    monthStart = today - 10 * DAY;
    const rows = await server.built.core.shared.workflows.findByIds(
      (await server.db.selectFrom('workflows').select('id').execute()).map((w) => w.id),
    );
    const ingest = async (tab: string, commits: SourceCommit[]) => {
      const workflow = rows.find((w) => w.id === flows[tab]);
      if (!workflow) throw new Error('workflow missing');
      await server.built.core.shared.ingest.ingestCommits(workflow, commits);
    };
    // Every 5 hours from the first day on (and a few before the window and at its very edges).
    const at = (i: number) => monthStart + i * 5 * HOUR - 3 * HOUR;
    const client = Array.from({ length: 40 }, (_, i) => commit('c', i, at(i)));
    await ingest('主干', client);
    // 发布 reached every other commit of 主干 (the same ids and times) and a few of its own.
    await ingest('发布', [
      ...client.filter((_, i) => i % 2 === 0),
      ...Array.from({ length: 5 }, (_, i) => commit('r', i, at(i * 7 + 1))),
    ]);
    await ingest(
      '服务器',
      Array.from({ length: 30 }, (_, i) => commit('s', i, at(i + 2))),
    );
    await ingest(
      '工具',
      Array.from({ length: 20 }, (_, i) => commit('t', i, at(i * 2))),
    );
    await ingest(
      '秘密',
      Array.from({ length: 10 }, (_, i) => commit('x', i, at(i * 3))),
    );
    // Two packages published today: items of the package workflow, counted as APK.
    for (const versionName of ['1.0.0', '1.1.0']) {
      const key = await transferFile(server, admin, `${versionName}.apk`, sampleApk({ versionName }));
      await server.request('POST', '/api/v2/upload_app', {
        token: admin,
        body: { appId: apps.game, s3Url: key, description: `发布 ${versionName}` },
      });
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = async <T>(path: string, query: string, token = admin) => {
    const res = await server.request<T>('GET', `${path}?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const everything = async (path: string, query: string, token = admin) => {
    const seen: CommitLogItem[] = [];
    let cursor = '';
    for (;;) {
      const page = await get<Page>(path, `${query}&pageSize=200${cursor ? `&cursor=${cursor}` : ''}`, token);
      seen.push(...page.list);
      if (!page.nextCursor) return seen;
      cursor = page.nextCursor;
    }
  };

  it('counts each day of a tab, the summary and a committer as the items the list shows, in one answer', async () => {
    const bounds = days.join(',');
    const window = `startTime=${days[0]}&endTime=${days.at(-1)}`;
    const summary = [flows.主干, flows.发布, flows.服务器, flows.安装包].join(',');
    const cases: Array<[string, string, string, 'app' | 'workflow', string?]> = [
      ['/api/commit_log', `workflowIds=${flows.主干}`, '', 'workflow'],
      ['/api/commit_log', `workflowIds=${summary}`, '', 'workflow'],
      ['/api/commit_log', `workflowIds=${summary}&onlyCliff=false`, '', 'workflow'],
      ['/api/commit_log', `workflowIds=${summary}&remark=bob`, '', 'workflow'],
      ['/api/commit_log', `workflowIds=${summary}&branch=develop`, '', 'workflow'],
      ['/api/commit_log', `workflowIds=${summary},${flows.工具}`, '', 'app'],
      ['/api/user_commit_log', 'remark=alice', '', 'app'],
      ['/api/user_commit_log', 'remark=alice&onlyCliff=false', '&project=game', 'app', 'game'],
      ['/api/user_commit_log', 'remark=admin', '', 'app'],
    ];
    for (const [path, query, extra, by, project] of cases) {
      const items = await everything(`${path}_list`, `${query}&${window}`);
      const calendar = await get<CommitLogCalendar>(
        `${path}_calendar`,
        `${query}&bounds=${bounds}&countPer=${by}${extra}`,
      );
      expect(calendar.cells, `${path} ${query}`).toEqual(countedFromList(items, days, by, project));
      expect(calendar.apps).toEqual([...new Set(items.map((i) => i.appName))].sort((a, b) => a.localeCompare(b)));
    }
  });

  it('counts a commit two workflows of one repository reached once in the day, once under each tab, and packages by type', async () => {
    const summary = [flows.主干, flows.发布, flows.安装包].join(',');
    const whole = `${days[0]},${days.at(-1)}`;
    const one = await get<CommitLogCalendar>('/api/commit_log_calendar', `workflowIds=${summary}&bounds=${whole}`);
    // 主干: 40 commits, 34 shown (every sixth a merge); 发布: its 20 copies (17 shown) and 5 of its own; 2 packages.
    const inWindow = await everything(
      '/api/commit_log_list',
      `workflowIds=${flows.主干}&startTime=${days[0]}&endTime=${days.at(-1)}`,
    );
    const copies = inWindow.filter((l) => Number(l.commitId.slice(1)) % 2 === 0).length;
    expect(one.cells).toEqual([
      {
        total: inWindow.length + 5 + 2,
        counts: [
          { key: '主干', count: inWindow.length },
          { key: '发布', count: copies + 5 },
          { key: 'APK', count: 2 },
        ].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
      },
    ]);
    // The trend counts per app: the copies in game are one commit there too.
    const trend = await get<CommitLogCalendar>(
      '/api/user_commit_log_calendar',
      `remark=alice&bounds=${whole}`,
      viewer.token,
    );
    const alice = await everything(
      '/api/user_commit_log_list',
      `remark=alice&startTime=${days[0]}&endTime=${days.at(-1)}`,
      viewer.token,
    );
    expect(trend.apps).toEqual(['game', 'tool']);
    expect(trend.cells[0]?.counts.find((c) => c.key === 'game')?.count).toBe(
      new Set(alice.filter((l) => l.appName === 'game').map((l) => `${l.commitTime}:${l.commitId}`)).size,
    );
  });

  it("counts only the apps the viewer may see and refuses another app's workflow", async () => {
    const bounds = days.join(',');
    const mine = await get<CommitLogCalendar>(
      '/api/user_commit_log_calendar',
      `remark=bob&bounds=${bounds}`,
      viewer.token,
    );
    expect(mine.apps).toEqual(['game', 'tool']);
    const all = await get<CommitLogCalendar>('/api/user_commit_log_calendar', `remark=bob&bounds=${bounds}`);
    expect(all.apps).toEqual(['game', 'hidden', 'tool']);
    const refused = await server.request('GET', `/api/commit_log_calendar?workflowIds=${flows.秘密}&bounds=${bounds}`, {
      token: viewer.token,
    });
    expect(refused.status).toBe(404);
    expect(
      (await server.request('GET', `/api/commit_log_calendar?workflowIds=99999&bounds=${bounds}`, { token: admin }))
        .status,
    ).toBe(404);
  });

  it('refuses bounds that are not ascending times, too many cells, or none, in Chinese', async () => {
    const tooMany = Array.from({ length: 368 }, (_, i) => monthStart + i * DAY).join(',');
    for (const [bounds, message] of [
      [`${days[1]},${days[0]}`, 'bounds 须严格递增'],
      [`${days[0]}`, 'bounds 格式不正确'],
      ['abc,def', 'bounds 格式不正确'],
      [tooMany, 'bounds 最多 367 个时间点'],
    ] as const) {
      const res = await server.request('GET', `/api/commit_log_calendar?workflowIds=${flows.主干}&bounds=${bounds}`, {
        token: admin,
      });
      expect(res.status, bounds.slice(0, 40)).toBe(400);
      expect(res.body.msg).toContain(message);
    }
    // A year of local days (366 cells) is within bounds.
    const year = Array.from({ length: 367 }, (_, i) => monthStart - 300 * DAY + i * DAY).join(',');
    const ok = await get<CommitLogCalendar>('/api/commit_log_calendar', `workflowIds=${flows.主干}&bounds=${year}`);
    expect(ok.cells).toHaveLength(366);
  });
});
