import type { CommitLogListQuery } from '@release/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';
import { createAppMembersRepository } from '../../apps/server/src/modules/apps/app-members.repository.ts';
import { createAppsPolicy } from '../../apps/server/src/modules/apps/apps.policy.ts';
import {
  createCommitLogsRepository,
  type CommitLogsRepository,
} from '../../apps/server/src/modules/commit-logs/commit-logs.repository.ts';
import {
  createCommitLogsService,
  type CommitLogsService,
} from '../../apps/server/src/modules/commit-logs/commit-logs.service.ts';
import { createVersionsRepository } from '../../apps/server/src/modules/versions/versions.repository.ts';
import { createWorkflowsRepository } from '../../apps/server/src/modules/workflows/workflows.repository.ts';
import { END_TIME, START_TIME } from './dataset.ts';
import type { BenchDb } from './setup.ts';

export const PAGE = 30;
const CALENDAR_PAGE = 200;
const CALENDAR_MAX_PAGES = 50;

export type RepoPatch = (repo: CommitLogsRepository, db: Kysely<Database>) => CommitLogsRepository;

/** The real commit-logs service over `db`; `patch` swaps repository functions (to try a proposed query). */
export function serviceOn(db: Kysely<Database>, patch: RepoPatch = (repo) => repo): CommitLogsService {
  const members = createAppMembersRepository(db);
  return createCommitLogsService({
    logs: patch(createCommitLogsRepository(db), db),
    workflows: createWorkflowsRepository(db),
    versions: createVersionsRepository(db),
    members,
    policy: createAppsPolicy(members),
    clock: { now: () => Date.now() },
  });
}

export interface Case {
  /** Same name at every size: the table pairs them. */
  name: string;
  /** Where the page starts (items above it), for the log. */
  depth: number;
  /** The whole month: its cost grows with the month's items, not with the table; no 2x target. */
  informational: boolean;
  /** A deep page by pageNo (OFFSET): the legacy API, which no index can bound; measured, no 2x target. */
  legacy?: boolean;
  /** Runs the query through `service`; answers the ids of the items shown (of every page, for a whole month). */
  run(service: CommitLogsService): Promise<Array<number | string>>;
}

type Source = { label: string; filter: { workflowIds: string } | { remark: string } };

const base = { onlyCliff: true, pageNo: 1, pageSize: PAGE };

function call(db: BenchDb, service: CommitLogsService, source: Source, extra: Partial<CommitLogListQuery>) {
  const query = { ...base, ...extra };
  return 'remark' in source.filter
    ? service.userList(db.viewer, { ...query, remark: source.filter.remark }, db.presenter)
    : service.list(db.viewer, { ...query, workflowIds: source.filter.workflowIds }, db.presenter);
}

/** Items the source lists, with onlyCliff unless told (its length in 30-item pages decides the middle and oldest page). */
async function count(db: BenchDb, source: Source, onlyCliff = true): Promise<number> {
  let q = db.handle.db.selectFrom('commit_logs').select((eb) => eb.fn.countAll<number>().as('n'));
  if (onlyCliff) q = q.where('is_filtered', '=', 0);
  if ('remark' in source.filter) q = q.where('remark', '=', source.filter.remark);
  else q = q.where('workflow_id', 'in', source.filter.workflowIds.split(',').map(Number));
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The month windows of the calendar: the newest, one a year back, the oldest of the history (UTC). */
export function months(): Array<{ label: string; startTime: number; endTime: number }> {
  const monthStart = (t: number, back: number) => {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1);
  };
  return [
    { label: 'newest', startTime: monthStart(END_TIME, 1), endTime: monthStart(END_TIME, 0) },
    { label: 'middle', startTime: monthStart(END_TIME, 13), endTime: monthStart(END_TIME, 12) },
    { label: 'oldest', startTime: monthStart(START_TIME, 0), endTime: monthStart(START_TIME, -1) },
  ];
}

/** Every item of a month as the calendar fetches it: 200 a page, following hasMore (by pageNo, as the web app does, or by cursor). */
async function wholeMonth(
  db: BenchDb,
  service: CommitLogsService,
  source: Source,
  window: { startTime: number; endTime: number },
  byCursor: boolean,
): Promise<number[]> {
  const items: number[] = [];
  let cursor: string | undefined;
  for (let pageNo = 1; pageNo <= CALENDAR_MAX_PAGES; pageNo += 1) {
    const page = await call(db, service, source, {
      ...window,
      pageSize: CALENDAR_PAGE,
      ...(byCursor ? (cursor ? { cursor } : {}) : { pageNo }),
    });
    items.push(...page.list.map((item) => item.id));
    if (!page.hasMore || page.list.length === 0 || !page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return items;
}

/** The queries measured on one dataset; cursors are taken from the real service's nextCursor. */
export async function buildCases(db: BenchDb, trendRemark: string, rareRemark: string): Promise<Case[]> {
  const real = serviceOn(db.handle.db);
  const ids = db.layout.workflowIds;
  const sources: Source[] = [
    { label: 'workflow', filter: { workflowIds: String(ids[0]) } },
    { label: 'summary (10 workflows)', filter: { workflowIds: ids.slice(0, 10).join(',') } },
    { label: 'user trend', filter: { remark: trendRemark } },
  ];
  const rare: Source = { label: 'user trend, a 0.1% committer', filter: { remark: rareRemark } };
  const cases: Case[] = [];
  for (const source of sources) {
    const pages = Math.max(1, Math.floor((await count(db, source)) / PAGE));
    const positions = [
      { label: 'middle', pageNo: Math.floor(pages / 2) + 1 },
      { label: 'oldest', pageNo: pages },
    ];
    cases.push({
      name: `${source.label}: newest page`,
      depth: 0,
      informational: false,
      run: async (s) => (await call(db, s, source, {})).list.map((item) => item.id),
    });
    for (const position of positions) {
      const depth = (position.pageNo - 1) * PAGE;
      const before =
        position.pageNo > 1 ? (await call(db, real, source, { pageNo: position.pageNo - 1 })).nextCursor : null;
      const cursor = before ?? undefined;
      cases.push({
        name: `${source.label}: ${position.label}, cursor`,
        depth,
        informational: false,
        run: async (s) => (await call(db, s, source, cursor ? { cursor } : {})).list.map((item) => item.id),
      });
      cases.push({
        name: `${source.label}: ${position.label}, pageNo (legacy)`,
        depth,
        informational: false,
        legacy: true,
        run: async (s) => (await call(db, s, source, { pageNo: position.pageNo })).list.map((item) => item.id),
      });
    }
  }
  // "Show filtered logs": hidden items too (merges, commits outside a committer filter), read as one range per
  // is_filtered value, merged (no index leads with the source and commit_time alone).
  for (const source of sources) {
    const withHidden = { onlyCliff: false };
    const pages = Math.max(1, Math.floor((await count(db, source, false)) / PAGE));
    const pageNo = Math.floor(pages / 2) + 1;
    const cursor =
      pageNo > 1
        ? ((await call(db, real, source, { ...withHidden, pageNo: pageNo - 1 })).nextCursor ?? undefined)
        : undefined;
    cases.push({
      name: `${source.label}, hidden shown: newest page`,
      depth: 0,
      informational: false,
      run: async (s) => (await call(db, s, source, withHidden)).list.map((item) => item.id),
    });
    cases.push({
      name: `${source.label}, hidden shown: middle, cursor`,
      depth: (pageNo - 1) * PAGE,
      informational: false,
      run: async (s) =>
        (await call(db, s, source, { ...withHidden, ...(cursor ? { cursor } : {}) })).list.map((item) => item.id),
    });
  }
  // A committer with 0.1% of the items (at 1k that is one item or none, so the small side passes the top committer).
  cases.push({
    name: `${rare.label}: newest page`,
    depth: 0,
    informational: false,
    run: async (s) => (await call(db, s, rare, {})).list.map((item) => item.id),
  });
  // The committer pick list of the workflow modal (GET /api/workflow/users): distinct names over the viewer's apps.
  cases.push({
    name: 'committer names of the app (pick list)',
    depth: 0,
    informational: false,
    run: (s) => s.committers(db.viewer),
  });
  for (const source of sources.slice(0, 2)) {
    for (const month of months()) {
      const window = { startTime: month.startTime, endTime: month.endTime };
      cases.push({
        name: `calendar ${month.label} month, ${source.label}: first 30`,
        depth: 0,
        informational: false,
        run: async (s) => (await call(db, s, source, window)).list.map((item) => item.id),
      });
      cases.push({
        name: `calendar ${month.label} month, ${source.label}: whole, pageNo`,
        depth: 0,
        informational: true,
        run: (s) => wholeMonth(db, s, source, window, false),
      });
      cases.push({
        name: `calendar ${month.label} month, ${source.label}: whole, cursor`,
        depth: 0,
        informational: true,
        run: (s) => wholeMonth(db, s, source, window, true),
      });
    }
  }
  return cases;
}
