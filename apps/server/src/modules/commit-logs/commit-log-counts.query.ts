import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What a calendar cell count of one workflow is: `n` items of `workflow_id` in cell `cell`. */
export type CellCount = { workflow_id: number; cell: number | string; n: number | string };

/** The cell of `column` (epoch ms) as a balanced CASE over the bounds: about log2(cells) comparisons a row. */
export function cellExpression(
  bounds: number[],
  column: RawBuilder<number>,
  lo = 0,
  hi = bounds.length - 1,
): RawBuilder<number> {
  if (hi - lo <= 1) return sql<number>`${sql.lit(lo)}`;
  const mid = (lo + hi) >> 1;
  return sql<number>`case when ${column} < ${sql.lit(bounds[mid] ?? 0)} then ${cellExpression(bounds, column, lo, mid)} else ${cellExpression(bounds, column, mid, hi)} end`;
}

/**
 * Whether the counts tables answer this window: the unfiltered calendar (no branch, committer), bounds on whole hours
 * (any zone a whole number of hours from UTC; others, e.g. UTC+5:30, read the items).
 */
export function countsAnswer(filter: { remark?: string; branch?: string; bounds: number[] }): boolean {
  return (
    !filter.remark && !filter.branch && (filter.bounds[0] ?? -1) >= 0 && filter.bounds.every((b) => b % HOUR === 0)
  );
}

/**
 * Each workflow's items per cell from the counts tables (migration 065), by the slots' index ranges: the window's
 * whole UTC days that no bound cuts from commit_log_days, the days a bound cuts (a viewer's midnight off UTC, the
 * window's edges) from commit_log_hours, one range per run of such days. A month at UTC+8 reads ≤ 744 hour slots a
 * workflow, a year ≤ 365 day slots and 13 × 24 hour slots, however many items they count.
 */
export async function countFromTables(
  db: Kysely<Database>,
  workflowIds: number[],
  bounds: number[],
  onlyCliff: boolean,
): Promise<CellCount[]> {
  const first = bounds[0] ?? 0;
  const last = bounds.at(-1) ?? 0;
  const cut = [...new Set(bounds.filter((b) => b % DAY !== 0).map((b) => Math.floor(b / DAY)))].sort((a, b) => a - b);
  const read = (
    table: 'commit_log_days' | 'commit_log_hours',
    unit: number,
    from: number,
    to: number,
    skip: number[],
  ) =>
    db
      .selectFrom(table)
      .select((eb) => [
        'workflow_id',
        cellExpression(bounds, sql<number>`slot * ${sql.lit(unit)}`).as('cell'),
        eb.fn.sum<number>('n').as('n'),
      ])
      .where('workflow_id', 'in', workflowIds)
      .where('is_filtered', 'in', onlyCliff ? [0] : [0, 1])
      .where('slot', '>=', from)
      .where('slot', '<', to)
      .$if(skip.length > 0, (q) => q.where('slot', 'not in', skip))
      .groupBy(['workflow_id', sql`cell`])
      .execute();
  const out: CellCount[] = [];
  const dayFrom = Math.ceil(first / DAY);
  const dayTo = Math.floor(last / DAY);
  if (dayFrom < dayTo) out.push(...(await read('commit_log_days', DAY, dayFrom, dayTo, cut)));
  for (let i = 0; i < cut.length; ) {
    let j = i;
    while (j + 1 < cut.length && cut[j + 1] === (cut[j] ?? 0) + 1) j += 1;
    const from = Math.max((cut[i] ?? 0) * 24, first / HOUR);
    const to = Math.min(((cut[j] ?? 0) + 1) * 24, last / HOUR);
    if (from < to) out.push(...(await read('commit_log_hours', HOUR, from, to, [])));
    i = j + 1;
  }
  return out;
}
