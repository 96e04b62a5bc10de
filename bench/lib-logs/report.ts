import type { Row } from '../lib/report.ts';
import type { PlanVerdict, Timing } from './measure.ts';
import { ms } from './measure.ts';

/** One query at both sizes. */
export interface QueryRow {
  name: string;
  small: Timing;
  large: Timing;
  smallPlan: PlanVerdict | null;
  largePlan: PlanVerdict | null;
  depth: number;
}

export const MAX_RATIO = 2;

/** Every row counts: the calendar's one read and the deepest pageNo page the server answers included. */
export function verdict(row: QueryRow): 'PASS' | 'MISS' {
  return row.large.p95 <= MAX_RATIO * row.small.p95 ? 'PASS' : 'MISS';
}

function kindText(plan: PlanVerdict | null, offset: boolean): string {
  if (!plan) return '?';
  return offset && plan.kind === 'index' ? 'index+offset' : plan.kind;
}

/** The table: query, both sizes' p50/p95 in ms (items shown), the ratio of p95s, the target, the plans. */
export function printQueryTable(
  title: string,
  rows: QueryRow[],
  smallLabel: string,
  largeLabel: string,
  log: (line: string) => void,
): void {
  const header = [
    'query',
    `${smallLabel} p50/p95 ms (items)`,
    `${largeLabel} p50/p95 ms (items)`,
    'p95 ratio',
    'target',
    'result',
    `plan ${smallLabel} / ${largeLabel}`,
  ];
  const lines = rows.map((row) => {
    const offset = row.name.includes('pageNo');
    return [
      row.name,
      `${ms(row.small.p50)} / ${ms(row.small.p95)} (${row.small.rows})`,
      `${ms(row.large.p50)} / ${ms(row.large.p95)} (${row.large.rows})${row.large.n < row.small.n ? ` n=${row.large.n}` : ''}`,
      `${(row.large.p95 / row.small.p95).toFixed(2)}x`,
      `<= ${MAX_RATIO}x`,
      verdict(row),
      `${kindText(row.smallPlan, offset)} / ${kindText(row.largePlan, offset)}`,
    ];
  });
  const table = [header, ...lines];
  const widths = header.map((_, col) => Math.max(...table.map((line) => (line[col] ?? '').length)));
  const format = (line: string[]) => line.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join(' | ');
  log(`\n${title}`);
  log(format(header));
  log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const line of lines) log(format(line));
}

/** Each distinct plan of the large dataset once, with the queries that use it. */
export function printPlans(rows: QueryRow[], log: (line: string) => void): void {
  const byPlan = new Map<string, string[]>();
  for (const row of rows) {
    const key = row.largePlan ? `[${row.largePlan.kind}] ${row.largePlan.summary}` : '[?] no plan captured';
    byPlan.set(key, [...(byPlan.get(key) ?? []), row.name]);
  }
  for (const [plan, names] of byPlan) log(`  · ${plan}\n      used by: ${names.join('; ')}`);
}

/** The rows as bench/RESULTS.md takes them: the large side is ours, the small side the reference. */
export function queryResults(prefix: string, rows: QueryRow[], smallLabel: string, largeLabel: string): Row[] {
  return rows.map((row) => ({
    metric: `${prefix}: ${row.name}`,
    ours: `p95 ${ms(row.large.p95)} ms at ${largeLabel} (${row.large.rows} items)`,
    reference: `p95 ${ms(row.small.p95)} ms at ${smallLabel} (${row.small.rows} items)`,
    ratio: `${(row.large.p95 / row.small.p95).toFixed(2)}x`,
    target: `<= ${MAX_RATIO}x`,
    pass: verdict(row) === 'PASS',
  }));
}
