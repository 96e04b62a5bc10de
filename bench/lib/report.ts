/** Figures, medians and the table every benchmark prints. */

export interface Row {
  metric: string;
  ours: string;
  reference: string;
  /** Median of the per-round ratios (ours vs reference, oriented so that higher is better), if any. */
  ratio: string;
  target: string;
  /** null when the figure could not be measured. */
  pass: boolean | null;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

export const MiB = 1024 * 1024;
export const mbps = (bytes: number, ms: number) => `${(bytes / MiB / (ms / 1000)).toFixed(0)} MiB/s`;
export const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / MiB).toFixed(0)} MiB`);
export const msText = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
export const fixed = (value: number, digits = 2) => value.toFixed(digits);

export function skipped(metric: string, target: string, reason: string): Row {
  return { metric, ours: 'n/a', reference: reason, ratio: 'n/a', target, pass: null };
}

export function printTable(rows: Row[], log: (line: string) => void): void {
  const header: Row = {
    metric: 'metric',
    ours: 'ours',
    reference: 'reference',
    ratio: 'ratio',
    target: 'target',
    pass: null,
  };
  const cells = (row: Row, isHeader: boolean) => [
    row.metric,
    row.ours,
    row.reference,
    row.ratio,
    row.target,
    isHeader ? 'result' : row.pass === null ? 'SKIP' : row.pass ? 'PASS' : 'MISS',
  ];
  const table = [cells(header, true), ...rows.map((row) => cells(row, false))];
  const widths = table[0]?.map((_, col) => Math.max(...table.map((line) => (line[col] ?? '').length))) ?? [];
  const format = (line: string[]) => line.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join(' | ');
  log(format(table[0] ?? []));
  log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const line of table.slice(1)) log(format(line));
}
