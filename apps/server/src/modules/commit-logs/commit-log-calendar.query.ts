import { calendarKeyOf, type CalendarCountPer, type CommitLogCalendar } from '@release/contract';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { redactRepoUrl } from '../../integrations/git/remote-url.ts';
import { cellExpression, countFromTables, countsAnswer } from './commit-log-counts.query.ts';
import { conditions, type PageFilter } from './commit-log-page.query.ts';

/** What a calendar counts: a workflow source (a tab or the summary) or a committer over apps, cut into cells. */
export interface CalendarFilter {
  workflowIds?: number[];
  /** A committer's trend: only these apps (undefined = all, for admins). */
  appIds?: number[];
  remark?: string;
  branch?: string;
  onlyCliff: boolean;
  /** Ascending epoch ms: cell i is [bounds[i], bounds[i+1]). */
  bounds: number[];
  countPer: CalendarCountPer;
  /** Only this app's items are counted (the trend's project); `apps` still names every app of the window. */
  project?: string;
}

type WorkflowInfo = { id: number; app_id: number; tab_name: string; content_type: string; repo_path: string | null };

/** ids per `IN (…)` list of the lookups: below SQLite's parameter limit. */
const CHUNK = 5_000;

function cellOf(bounds: number[], time: number): number {
  let lo = 0;
  let hi = bounds.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (time < (bounds[mid] ?? 0)) hi = mid;
    else lo = mid;
  }
  return lo;
}

/**
 * The page query's index conditions over the whole window; with hidden items shown both is_filtered values are named,
 * so the (…, is_filtered, commit_time, id) indexes are read as two ranges, not the source's whole history.
 */
function where(
  eb: ExpressionBuilder<Database, 'commit_logs'>,
  filter: CalendarFilter,
  scope: PageFilter['workflowIds'],
) {
  const page: PageFilter = {
    ...(scope ? { workflowIds: scope } : {}),
    ...(filter.appIds ? { appIds: filter.appIds } : {}),
    ...(filter.remark ? { remark: filter.remark } : {}),
    ...(filter.branch ? { branch: filter.branch } : {}),
    onlyCliff: filter.onlyCliff,
    startTime: filter.bounds[0],
    endTime: filter.bounds.at(-1),
    offset: 0,
    limit: 0,
  };
  const terms: Array<Expression<SqlBool>> = [conditions(eb, page, {})];
  if (!filter.onlyCliff) terms.push(eb('is_filtered', 'in', [0, 1]));
  return eb.and(terms);
}

async function chunked<T>(ids: number[], read: (part: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}

/** One cell's counts being summed: counted rows add up, listed items count once per identity. */
class Tally {
  counted = 0;
  readonly identities = new Set<string>();
  get total(): number {
    return this.counted + this.identities.size;
  }
}

/**
 * A calendar window in one read of the indexes: each cell's commits per key (package type, else app or workflow) and
 * in all. A workflow whose repository no other workflow of the source follows is counted by the database: from the
 * day and hour counts (commit-log-counts.query.ts) when no branch or committer filter applies and the bounds are on
 * whole hours, else by a GROUP BY over its (workflow_id, is_filtered, commit_time, id) range; the items of workflows that
 * share a repository (their copies of a commit count once), of package workflows (each counts under its package type)
 * and of a committer's trend are listed (time, commit, workflow) and counted here by the identity the console uses
 * for a commit's copies: commit time, repository, commit id.
 */
export async function countCalendar(db: Kysely<Database>, filter: CalendarFilter): Promise<CommitLogCalendar> {
  const cells = filter.bounds.length - 1;
  const workflowsOf = async (ids: number[]) =>
    chunked(ids, (part) =>
      db
        .selectFrom('workflows')
        .select(['id', 'app_id', 'tab_name', 'content_type', 'repo_path'])
        .where('id', 'in', part)
        .execute(),
    );
  const infos = new Map<number, WorkflowInfo>();
  let counted: number[] = [];
  let listed: number[] | undefined;
  if (filter.workflowIds) {
    const found = await workflowsOf([...new Set(filter.workflowIds)]);
    const repos = new Map<string, number>();
    const repoOf = (w: WorkflowInfo) => (w.repo_path === null ? '' : redactRepoUrl(w.repo_path));
    for (const w of found) {
      infos.set(w.id, w);
      repos.set(repoOf(w), (repos.get(repoOf(w)) ?? 0) + 1);
    }
    const exact = (w: WorkflowInfo) => w.content_type === 'package' || (repos.get(repoOf(w)) ?? 0) > 1;
    counted = found.filter((w) => !exact(w)).map((w) => w.id);
    listed = found.filter(exact).map((w) => w.id);
  }

  const groups = !counted.length
    ? []
    : countsAnswer(filter)
      ? await countFromTables(db, counted, filter.bounds, filter.onlyCliff)
      : await db
          .selectFrom('commit_logs')
          .select((eb) => [
            'workflow_id',
            cellExpression(filter.bounds, sql<number>`commit_time`).as('cell'),
            eb.fn.countAll<number>().as('n'),
          ])
          .where((eb) => where(eb, filter, counted))
          .groupBy(['workflow_id', sql`cell`])
          .execute();
  const items =
    listed === undefined || listed.length
      ? await db
          .selectFrom('commit_logs')
          .select(['workflow_id', 'commit_id', 'commit_time', 'app_version_id'])
          .where((eb) => where(eb, filter, listed))
          .execute()
      : [];

  // Names of what was found: workflows (a trend's are known only now), their apps, package types.
  const unknown = [...new Set(items.map((i) => i.workflow_id))].filter((id) => !infos.has(id));
  for (const w of await workflowsOf(unknown)) infos.set(w.id, w);
  const appIds = [...new Set([...infos.values()].map((w) => w.app_id))];
  const appNames = new Map(
    (
      await chunked(appIds, (part) =>
        db.selectFrom('apps').select(['id', 'app_name']).where('id', 'in', part).execute(),
      )
    ).map((a) => [a.id, a.app_name]),
  );
  const versionIds = [...new Set(items.flatMap((i) => (i.app_version_id === null ? [] : [i.app_version_id])))];
  const types = new Map(
    (
      await chunked(versionIds, (part) =>
        db.selectFrom('app_versions').select(['id', 'native_package_type']).where('id', 'in', part).execute(),
      )
    ).map((v) => [v.id, v.native_package_type]),
  );

  const apps = new Set<string>();
  const tallies = Array.from({ length: cells }, () => ({ all: new Tally(), keys: new Map<string, Tally>() }));
  const add = (workflowId: number, cell: number, typeOf: string | null, identity: string | null, n: number) => {
    const w = infos.get(workflowId);
    const at = tallies[cell];
    if (!w || !at) return;
    const appName = appNames.get(w.app_id) ?? '';
    apps.add(appName);
    if (filter.project !== undefined && appName !== filter.project) return;
    const key = calendarKeyOf({ appName, tabName: w.tab_name, nativePackageType: typeOf }, filter.countPer);
    const tally = at.keys.get(key) ?? new Tally();
    at.keys.set(key, tally);
    for (const t of [tally, at.all]) {
      if (identity === null) t.counted += n;
      else t.identities.add(identity);
    }
  };
  for (const g of groups) add(Number(g.workflow_id), Number(g.cell), null, null, Number(g.n));
  for (const i of items) {
    const w = infos.get(i.workflow_id);
    const repo = w?.repo_path ? redactRepoUrl(w.repo_path) : '';
    const type = i.app_version_id === null ? null : (types.get(i.app_version_id) ?? null);
    add(
      i.workflow_id,
      cellOf(filter.bounds, i.commit_time),
      type,
      `${i.commit_time}\u0000${repo}\u0000${i.commit_id}`,
      1,
    );
  }
  return {
    cells: tallies.map(({ all, keys }) => ({
      total: all.total,
      counts: [...keys]
        .map(([key, t]) => ({ key, count: t.total }))
        .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
    })),
    apps: [...apps].sort((a, b) => a.localeCompare(b)),
  };
}
