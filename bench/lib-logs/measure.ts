import {
  CompiledQuery,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { DialectName } from '../../apps/server/src/db/database.ts';
import type { Database } from '../../apps/server/src/db/schema.ts';

/** Nearest-rank percentile of ascending values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export interface Timing {
  p50: number;
  p95: number;
  n: number;
  /** What the timed call answered (rows shown, pages walked …), from its last run. */
  rows: number;
}

/** Calls whose slowest warm-up took under this get FAST_ITERATIONS timed calls each (see timePair). */
export const FAST_CALL_MS = 5;
export const FAST_ITERATIONS = 200;

/**
 * The two sizes of one query, timed in alternation: 3 warm-ups each, then round after round one call of each, the
 * order flipped every round, so both sizes meet the same machine (a GC, a neighbour's burst) as often. A query whose
 * slowest warm-up took under FAST_CALL_MS gets `fastIterations` rounds: with 30 calls the p95 is the 2nd-worst call
 * and one preempted call decides it; with 200 it is the 10th-worst. Slower ones get `iterations`, fewer when they
 * would outrun `budgetMs` (never fewer than 5). The target is unchanged: the p95 ratio.
 */
export async function timePair(
  small: () => Promise<unknown[]>,
  large: () => Promise<unknown[]>,
  iterations: number,
  fastIterations = FAST_ITERATIONS,
  budgetMs = 15_000,
): Promise<{ small: Timing; large: Timing }> {
  const calls = [small, large] as const;
  const rows = [0, 0];
  let slowest = 0;
  for (let i = 0; i < 3; i += 1)
    for (const [side, call] of calls.entries()) {
      const started = performance.now();
      rows[side] = (await call()).length;
      slowest = Math.max(slowest, performance.now() - started);
    }
  const wanted = slowest < FAST_CALL_MS ? Math.max(iterations, fastIterations) : iterations;
  const rounds = Math.max(5, Math.min(wanted, Math.floor(budgetMs / 2 / Math.max(slowest, 0.001))));
  const times: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round += 1)
    for (const side of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const started = performance.now();
      rows[side] = (await calls[side]()).length;
      times[side].push(performance.now() - started);
    }
  const timing = (side: 0 | 1): Timing => {
    const sorted = times[side].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: rounds, rows: rows[side] ?? 0 };
  };
  return { small: timing(0), large: timing(1) };
}

export const ms = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

/** Records the compiled SQL of every SELECT run through the returned Kysely, without changing it. */
export function captureQueries(db: Kysely<Database>): { db: Kysely<Database>; take(): CompiledQuery[] } {
  let seen: CompiledQuery[] = [];
  const executor = db.getExecutor();
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      if (args.node.kind === 'SelectQueryNode' || args.node.kind === 'RawNode')
        seen.push(executor.compileQuery(args.node, args.queryId));
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return args.result;
    },
  };
  return {
    db: db.withPlugin(plugin),
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
  };
}

export interface PlanVerdict {
  /**
   * index: index ranges read in order; walk: an index read in order that skips rows a filter drops (a cursor
   * without a range); sort: every match read, then sorted; scan: the table read. A lookup by primary key (the ids
   * a subquery chose) and the sort of those few rows count as bounded.
   */
  kind: 'index' | 'walk' | 'sort' | 'scan';
  summary: string;
  lines: string[];
}

const uniq = (values: string[]) => [...new Set(values)];

/**
 * EXPLAIN QUERY PLAN on SQLite; EXPLAIN ANALYZE (costs and timing off) on PostgreSQL, whose "Rows Removed by
 * Filter" tells an index walk that skips rows from a range read.
 */
export async function explain(db: Kysely<Database>, dialect: DialectName, query: CompiledQuery): Promise<PlanVerdict> {
  const usesCursor = /"id"\) </.test(query.sql);
  if (dialect === 'sqlite') {
    const result = await db.executeQuery<{ id: number; parent: number; detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    const lines = result.rows.map((r) => r.detail);
    const reads = (detail: string) =>
      /^(SCAN|SEARCH) (c|commit_logs)\b/.test(detail) && !detail.includes('INTEGER PRIMARY KEY');
    const access = uniq(lines.filter(reads));
    const byId = lines.some((l) => /^SEARCH c USING INTEGER PRIMARY KEY/.test(l));
    // A sort beside a read of commit_logs orders every row that read matches; one beside a merge of limited
    // subqueries, or beside reads by id, orders a few rows.
    const sorts = result.rows.some(
      (r) =>
        /TEMP B-TREE FOR (RIGHT PART OF )?ORDER BY/.test(r.detail) &&
        result.rows.some((o) => o.parent === r.parent && reads(o.detail)),
    );
    let kind: PlanVerdict['kind'] = 'index';
    if (access.some((l) => l.startsWith('SCAN') && !l.includes(' USING '))) kind = 'scan';
    else if (sorts) kind = 'sort';
    else if (access.some((l) => l.startsWith('SCAN')) || (usesCursor && !access.some((l) => /commit_time[<>]/.test(l))))
      kind = 'walk';
    return {
      kind,
      summary: `${access.join(' | ')}${sorts ? ' + TEMP B-TREE sort' : ''}${byId ? ' -> c by id' : ''}`,
      lines,
    };
  }
  const result = await db.executeQuery<{ 'QUERY PLAN': string }>(
    CompiledQuery.raw(`explain (analyze, costs off, timing off, summary off) ${query.sql}`, [...query.parameters]),
  );
  const lines = result.rows.map((r) => r['QUERY PLAN']);
  const isNode = (l: string) => / on commit_logs( \w+)?( |$)/.test(l);
  const byId = lines.some((l) => isNode(l) && l.includes('commit_logs_pkey'));
  let removed = 0;
  let read = 0;
  const access: string[] = [];
  lines.forEach((line, index) => {
    if (!isNode(line) || line.includes('commit_logs_pkey')) return;
    access.push(
      line
        .trim()
        .replace(/^->\s*/, '')
        .replace(/\s*\(actual.*$/, '')
        .replace(/ on commit_logs( \w+)?$/, ' on commit_logs'),
    );
    read += Number(/actual rows=(\d+) loops=(\d+)/.exec(line)?.[1] ?? 0) * Number(/loops=(\d+)/.exec(line)?.[1] ?? 1);
    for (let i = index + 1; i < lines.length && !/->/.test(lines[i] ?? ''); i += 1) {
      const match = /Rows Removed by (?:Index Recheck|Filter): (\d+)/.exec(lines[i] ?? '');
      if (match) removed += Number(match[1]);
    }
  });
  // Bitmap heap reads come unordered: all their matches are sorted. When c is read by id, one Sort (of the ids a
  // subquery chose) is expected; any other Sort orders every match.
  const sortNodes = lines.filter((l) => /^(->\s+)?Sort\s+\(/.test(l.trim())).length;
  const sorts = access.some((l) => l.startsWith('Bitmap Heap Scan')) || sortNodes > (byId ? 1 : 0);
  let kind: PlanVerdict['kind'] = 'index';
  if (access.some((l) => /Seq Scan/.test(l))) kind = 'scan';
  else if (sorts) kind = 'sort';
  else if (removed > 1000) kind = 'walk';
  return {
    kind,
    summary: `${uniq(access).join(' | ')} (read ${read}${removed ? ` + ${removed} filtered away` : ''})${sorts ? ' + Sort' : ''}${byId ? ' -> c by id' : ''}`,
    lines,
  };
}
