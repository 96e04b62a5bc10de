import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';
import type { CommitLogFilter, CommitLogsRepository } from '../../apps/server/src/modules/commit-logs/commit-logs.repository.ts';

/**
 * A proposed CommitLogsRepository.list, same filter, same rows, same order (measured beside the shipped one; the
 * repository is not changed here). Three changes:
 *  1. the cursor also says `commit_time <= T`, a range both planners can start an index read from (the shipped
 *     `commit_time < T OR (commit_time = T AND id < I)` alone is only a filter: the read starts at the newest row);
 *  2. several workflows (the summary tab, its calendar), first page or cursor: one ordered, limited read per
 *     workflow (UNION ALL), merged — instead of reading and sorting every item of every workflow. With an offset
 *     (pageNo > 1) each read would grow by the offset, k times over, so those keep the single read-and-sort;
 *  3. the page's ids are chosen first from commit_logs alone, then joined (a deep `pageNo` skips index entries,
 *     not joined rows).
 */
function conditions(eb: ExpressionBuilder<Database, 'commit_logs'>, filter: CommitLogFilter, workflowId: number | null): Expression<SqlBool> {
  const terms: Array<Expression<SqlBool>> = [];
  if (workflowId !== null) terms.push(eb('workflow_id', '=', workflowId));
  else if (filter.workflowIds) terms.push(eb('workflow_id', 'in', filter.workflowIds.length ? filter.workflowIds : [0]));
  if (filter.appIds) terms.push(eb('app_id', 'in', filter.appIds.length ? filter.appIds : [0]));
  if (filter.branch) terms.push(eb('branch', '=', filter.branch.replace(/^refs\/heads\//, '')));
  if (filter.onlyCliff) terms.push(eb('is_filtered', '=', 0));
  if (filter.startTime !== undefined) terms.push(eb('commit_time', '>=', filter.startTime));
  if (filter.endTime !== undefined) terms.push(eb('commit_time', '<', filter.endTime));
  if (filter.remark) terms.push(eb('remark', '=', filter.remark));
  if (filter.before) {
    const { commitTime, id } = filter.before;
    terms.push(eb('commit_time', '<=', commitTime));
    terms.push(eb.or([eb('commit_time', '<', commitTime), eb.and([eb('commit_time', '=', commitTime), eb('id', '<', id)])]));
  }
  return eb.and(terms);
}

export function proposedList(db: Kysely<Database>): CommitLogsRepository['list'] {
  const newest = (filter: CommitLogFilter, workflowId: number | null, take: number) =>
    db
      .selectFrom('commit_logs')
      .select(['id', 'commit_time'])
      .where((eb) => conditions(eb, filter, workflowId))
      .orderBy('commit_time', 'desc')
      .orderBy('id', 'desc')
      .limit(take);

  return async (filter: CommitLogFilter) => {
    const workflows = filter.offset === 0 && filter.workflowIds && filter.workflowIds.length > 1 ? [...new Set(filter.workflowIds)] : null;
    // Each workflow's newest `limit + 1` contain the merged page; the merge keeps the page's ids only, so just those
    // rows are read and joined. One workflow or none: the page's ids straight from the index.
    const ids = workflows
      ? db
          .selectFrom(
            workflows
              .map((id) => db.selectFrom(newest(filter, id, filter.limit + 1).as('p')).select(['p.id', 'p.commit_time']))
              .reduce((all, part) => all.unionAll(part))
              .as('m'),
          )
          .select('m.id')
          .orderBy('m.commit_time', 'desc')
          .orderBy('m.id', 'desc')
          .limit(filter.limit + 1)
      : db.selectFrom(newest(filter, null, filter.limit + 1).offset(filter.offset).as('p')).select('p.id');
    return db
      .selectFrom('commit_logs as c')
      .innerJoin('workflows as w', 'w.id', 'c.workflow_id')
      .innerJoin('apps as a', 'a.id', 'c.app_id')
      .leftJoin('app_versions as v', 'v.id', 'c.app_version_id')
      .leftJoin('users as u', 'u.id', 'v.upload_by')
      .where('c.id', 'in', ids)
      .selectAll('c')
      .select(['w.tab_name as tab_name', 'w.repo_path as repo_path', 'a.app_name as app_name', 'v.native_package_type as native_package_type', 'v.file_key as file_key', 'v.file_name as file_name', 'u.username as upload_by_name'])
      .orderBy('c.commit_time', 'desc')
      .orderBy('c.id', 'desc')
      .limit(filter.limit + 1)
      .execute();
  };
}

/**
 * The committer names of the given apps (undefined: all) by a loose index scan of (app_id, remark): one index probe
 * per distinct name and app (`min(remark) … where remark > previous`), instead of reading every item of the apps.
 */
export function proposedCommitters(db: Kysely<Database>): CommitLogsRepository['committers'] {
  return async (appIds) => {
    if (appIds && appIds.length === 0) return [];
    const apps = appIds ? sql`where a.id in (${sql.join(appIds)})` : sql``;
    const result = await sql<{ remark: string }>`
      with recursive r(app_id, remark) as (
        select a.id, (select min(remark) from commit_logs where app_id = a.id) from apps a ${apps}
        union all
        select r.app_id, (select min(remark) from commit_logs where app_id = r.app_id and remark > r.remark) from r where r.remark is not null
      )
      select distinct remark from r where remark is not null order by remark limit 2000`.execute(db);
    return result.rows.map((row) => row.remark);
  };
}
