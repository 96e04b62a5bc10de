import type { AliasedSelectQueryBuilder, Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** What a page of update items is chosen by (the repository's CommitLogFilter without the joins). */
export interface PageFilter {
  workflowIds?: number[];
  appIds?: number[];
  branch?: string;
  onlyCliff: boolean;
  startTime?: number;
  endTime?: number;
  remark?: string;
  before?: { commitTime: number; id: number };
  offset: number;
  limit: number;
}

type Row = { id: number; commit_time: number };
/** An ordered, limited read of (id, commit_time): a read of commit_logs or a merge of such reads. */
interface Ordered {
  as<A extends string>(alias: A): AliasedSelectQueryBuilder<Row, A>;
}

/** Above this many sources one UNION ALL is split into merged groups (SQLite allows 500 terms in a compound select). */
const MERGE_FAN_IN = 64;

/**
 * One source of a merge: a single workflow, or a single app of a committer's trend; with hidden items shown, each of
 * them once for shown (0) and once for hidden (1) items, so that every read is one range of a (…, is_filtered,
 * commit_time, id) index.
 */
type Source = { workflowId?: number; appId?: number; isFiltered?: 0 | 1 };

/**
 * The filter as index conditions. The cursor is a row-value comparison, `(commit_time, id) < (T, I)`: both planners
 * start an index range there (the equivalent `commit_time < T OR (commit_time = T AND id < I)` is only a filter, read
 * from the newest entry down). Only the tighter of the cursor and `endTime` is sent, so the planner never has two
 * upper bounds to choose from.
 */
export function conditions(
  eb: ExpressionBuilder<Database, 'commit_logs'>,
  filter: PageFilter,
  source: Source,
): Expression<SqlBool> {
  const terms: Array<Expression<SqlBool>> = [];
  if (source.workflowId !== undefined) terms.push(eb('workflow_id', '=', source.workflowId));
  else if (filter.workflowIds)
    terms.push(eb('workflow_id', 'in', filter.workflowIds.length ? filter.workflowIds : [0]));
  if (source.appId !== undefined) terms.push(eb('app_id', '=', source.appId));
  else if (filter.appIds) terms.push(eb('app_id', 'in', filter.appIds.length ? filter.appIds : [0]));
  if (filter.remark) terms.push(eb('remark', '=', filter.remark));
  if (source.isFiltered !== undefined) terms.push(eb('is_filtered', '=', source.isFiltered));
  else if (filter.onlyCliff) terms.push(eb('is_filtered', '=', 0));
  if (filter.branch) terms.push(eb('branch', '=', filter.branch.replace(/^refs\/heads\//, '')));
  if (filter.startTime !== undefined) terms.push(eb('commit_time', '>=', filter.startTime));
  const { before, endTime } = filter;
  if (before && (endTime === undefined || before.commitTime < endTime))
    terms.push(eb(eb.refTuple('commit_time', 'id'), '<', eb.tuple(before.commitTime, before.id)));
  else if (endTime !== undefined) terms.push(eb('commit_time', '<', endTime));
  return eb.and(terms);
}

function newest(db: Kysely<Database>, filter: PageFilter, source: Source, take: number, skip = 0) {
  const read = db
    .selectFrom('commit_logs')
    .select(['id', 'commit_time'])
    .where((eb) => conditions(eb, filter, source))
    .orderBy('commit_time', 'desc')
    .orderBy('id', 'desc')
    .limit(take);
  return skip ? read.offset(skip) : read;
}

/**
 * Rows `skip` to `skip + take` of several ordered reads merged; each read holds its newest `skip + take`, so the sort
 * sees at most parts × (skip + take) rows.
 */
function merge(db: Kysely<Database>, parts: Ordered[], take: number, skip: number, fanIn: number): Ordered {
  if (parts.length > fanIn) {
    const groups: Ordered[] = [];
    for (let i = 0; i < parts.length; i += fanIn)
      groups.push(merge(db, parts.slice(i, i + fanIn), skip + take, 0, fanIn));
    return merge(db, groups, take, skip, fanIn);
  }
  // SQLite allows no ORDER BY/LIMIT on a term of a compound select: each read is wrapped as a subquery.
  const terms = parts.map((part, i) => db.selectFrom(part.as(`p${i}`)).select(['id', 'commit_time']));
  const union = terms.slice(1).reduce((all, term) => all.unionAll(term), terms[0] as (typeof terms)[number]);
  const merged = db
    .selectFrom(union.as('m'))
    .select(['m.id', 'm.commit_time'])
    .orderBy('m.commit_time', 'desc')
    .orderBy('m.id', 'desc')
    .limit(take);
  return skip ? merged.offset(skip) : merged;
}

/**
 * The ids of one page, newest first (`limit + 1` of them: one more tells whether there is more), chosen from the
 * indexes alone, so a deep `offset` steps over index entries, never over joined rows.
 *  - one workflow, or a committer, shown items only (the default): one range read in (commit_time, id) order;
 *  - several workflows (the summary tab), a committer's trend over a viewer's apps, or hidden items shown too: one
 *    limited ordered read per workflow or app (and per is_filtered value), merged. A page then costs about k × page,
 *    not a sort of every item of the k sources. With an offset (the legacy pageNo) each read is limited to offset +
 *    page: never more than the single read would sort.
 */
export function pageIds(
  db: Kysely<Database>,
  filter: PageFilter,
  fanIn = MERGE_FAN_IN,
): AliasedSelectQueryBuilder<Row, 'page'> {
  const take = filter.limit + 1;
  const distinct = (ids: number[] | undefined) => (ids && new Set(ids).size > 1 ? [...new Set(ids)] : null);
  const workflows = distinct(filter.workflowIds);
  const apps = !workflows && filter.remark ? distinct(filter.appIds) : null;
  const scopes: Source[] = workflows
    ? workflows.map((workflowId) => ({ workflowId }))
    : apps
      ? apps.map((appId) => ({ appId }))
      : [{}];
  const sources = filter.onlyCliff
    ? scopes
    : scopes.flatMap((scope) => [0, 1].map((isFiltered) => ({ ...scope, isFiltered: isFiltered as 0 | 1 })));
  if (sources.length === 1) return newest(db, filter, sources[0] ?? {}, take, filter.offset).as('page');
  const reads = sources.map((source) => newest(db, filter, source, filter.offset + take));
  return merge(db, reads, take, filter.offset, fanIn).as('page');
}
