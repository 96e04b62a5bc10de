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
import { MAX_PAGE_OFFSET } from '../../apps/server/src/modules/commit-logs/commit-logs.service.ts';
import { DAY, END_TIME, START_TIME } from './dataset.ts';
import type { BenchDb } from './setup.ts';

export const PAGE = 30;

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
  /** Runs the query through `service`; answers what it shows (item ids, or a calendar's cells). */
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

/** The source's items, with onlyCliff unless told. */
function itemsOf(db: BenchDb, source: Source, onlyCliff: boolean) {
  let q = db.handle.db.selectFrom('commit_logs');
  if (onlyCliff) q = q.where('is_filtered', '=', 0);
  if ('remark' in source.filter) q = q.where('remark', '=', source.filter.remark);
  else q = q.where('workflow_id', 'in', source.filter.workflowIds.split(',').map(Number));
  return q;
}

/** Items the source lists, with onlyCliff unless told (its length in 30-item pages decides the middle and oldest page). */
async function count(db: BenchDb, source: Source, onlyCliff = true): Promise<number> {
  const row = await itemsOf(db, source, onlyCliff)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The cursor that starts a page `depth` items down (the nextCursor of the page above it), or none at the top. */
async function cursorAt(db: BenchDb, source: Source, depth: number, onlyCliff = true): Promise<string | undefined> {
  if (depth === 0) return undefined;
  const row = await itemsOf(db, source, onlyCliff)
    .select(['commit_time', 'id'])
    .orderBy('commit_time', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(depth - 1)
    .executeTakeFirstOrThrow();
  return `${row.commit_time}:${row.id}`;
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

/** The console's calendar read: a month cut into days, or a year into months (UTC here), every cell's counts. */
function calendarRead(
  db: BenchDb,
  service: CommitLogsService,
  source: Source,
  bounds: number[],
): Promise<Array<number | string>> {
  const query = { onlyCliff: true, bounds, countPer: 'workflow' as const };
  return (
    'remark' in source.filter
      ? service.userCalendar(db.viewer, { ...query, countPer: 'app', remark: source.filter.remark })
      : service.calendar(db.viewer, { ...query, workflowIds: source.filter.workflowIds })
  ).then((answer) =>
    answer.cells.map((cell) => `${cell.total}:${cell.counts.map((c) => `${c.key}=${c.count}`).join(',')}`),
  );
}

/** The days of a month window (its bounds), and the months of the year that ends with it. */
const HOUR_MS = DAY / 24;
function dayBounds(window: { startTime: number; endTime: number }): number[] {
  const out: number[] = [];
  for (let t = window.startTime; t <= window.endTime; t += DAY) out.push(t);
  return out;
}
function yearBounds(endTime: number): number[] {
  const end = new Date(endTime);
  return Array.from({ length: 13 }, (_, i) => Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 12 + i, 1));
}

/** The queries measured on one dataset; a cursor is the (commit time, id) of the item above the page, as nextCursor. */
export async function buildCases(db: BenchDb, trendRemark: string, rareRemark: string): Promise<Case[]> {
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
      run: async (s) => (await call(db, s, source, {})).list.map((item) => item.id),
    });
    for (const position of positions) {
      const depth = (position.pageNo - 1) * PAGE;
      const cursor = await cursorAt(db, source, depth);
      cases.push({
        name: `${source.label}: ${position.label}, cursor`,
        depth,
        run: async (s) => (await call(db, s, source, cursor ? { cursor } : {})).list.map((item) => item.id),
      });
    }
    // The spec's pageNo as deep as it goes (pages past MAX_PAGE_OFFSET are refused, pointing to the cursor): the
    // oldest page of a source that has fewer items.
    const deepest = Math.min(pages, Math.floor(MAX_PAGE_OFFSET / PAGE) + 1);
    cases.push({
      name: `${source.label}: deepest pageNo`,
      depth: (deepest - 1) * PAGE,
      run: async (s) => (await call(db, s, source, { pageNo: deepest })).list.map((item) => item.id),
    });
  }
  // "Show filtered logs": hidden items too (merges, commits outside a committer filter), read as one range per
  // is_filtered value, merged (no index leads with the source and commit_time alone).
  for (const source of sources) {
    const withHidden = { onlyCliff: false };
    const pages = Math.max(1, Math.floor((await count(db, source, false)) / PAGE));
    const pageNo = Math.floor(pages / 2) + 1;
    const cursor = await cursorAt(db, source, (pageNo - 1) * PAGE, false);
    cases.push({
      name: `${source.label}, hidden shown: newest page`,
      depth: 0,
      run: async (s) => (await call(db, s, source, withHidden)).list.map((item) => item.id),
    });
    cases.push({
      name: `${source.label}, hidden shown: middle, cursor`,
      depth: (pageNo - 1) * PAGE,
      run: async (s) =>
        (await call(db, s, source, { ...withHidden, ...(cursor ? { cursor } : {}) })).list.map((item) => item.id),
    });
  }
  // A committer with 0.1% of the items (at 1k that is one item or none, so the small side passes the top committer).
  cases.push({
    name: `${rare.label}: newest page`,
    depth: 0,
    run: async (s) => (await call(db, s, rare, {})).list.map((item) => item.id),
  });
  // The committer pick list of the workflow modal (GET /api/workflow/users): distinct names over the viewer's apps.
  cases.push({
    name: 'committer names of the app (pick list)',
    depth: 0,
    run: (s) => s.committers(db.viewer),
  });
  for (const source of sources.slice(0, 2)) {
    for (const month of months()) {
      const window = { startTime: month.startTime, endTime: month.endTime };
      cases.push({
        name: `calendar ${month.label} month, ${source.label}: first 30`,
        depth: 0,
        run: async (s) => (await call(db, s, source, window)).list.map((item) => item.id),
      });
      cases.push({
        name: `calendar ${month.label} month, ${source.label}: counts per day, one read of the day counts (default view)`,
        depth: 0,
        run: (s) => calendarRead(db, s, source, dayBounds(window)),
      });
    }
    // A console at UTC+8 (the product's users): every midnight cuts a UTC day, so the month reads the hour counts.
    const newest = months()[0];
    if (newest)
      cases.push({
        name: `calendar newest month at UTC+8, ${source.label}: counts per day, one read of the hour counts (default view)`,
        depth: 0,
        run: (s) =>
          calendarRead(
            db,
            s,
            source,
            dayBounds(newest).map((t) => t - 8 * HOUR_MS),
          ),
      });
    cases.push({
      name: `calendar year, ${source.label}: counts per month, one read of the day counts (default view)`,
      depth: 0,
      run: (s) => calendarRead(db, s, source, yearBounds(END_TIME)),
    });
  }
  return cases;
}
