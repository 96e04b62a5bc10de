import path from 'node:path';
import { fromSources, runNode } from './lib/proc.ts';
import { fixed, mb, median, msText, type Row } from './lib/report.ts';

/** (b) Our inspectPackage against app-info-parser on the same files, each run in its own child process. */

interface ChildResult {
  ms: number;
  warmMs: number;
  peak: number;
  baseline: number;
  summary: string;
}

const RSS_TARGET = 150 * 1024 * 1024;

/** The child as run.mjs bundled it (plain node, as the compiled server runs our inspector), or its source under tsx. */
function childCommand(): string[] {
  if (fromSources) return ['--import', 'tsx', path.join(import.meta.dirname, 'inspect-child.ts')];
  const bundled = process.env.BENCH_INSPECT_CHILD;
  if (!bundled) throw new Error('BENCH_INSPECT_CHILD is not set (start through `npm run bench`)');
  return [bundled];
}

async function inspectIn(which: 'ours' | 'reference', file: string): Promise<ChildResult> {
  return JSON.parse(await runNode([...childCommand(), which, file])) as ChildResult;
}

export interface InspectCase {
  label: string;
  file: string;
  /** Required speed-up: reference time / our time. */
  minRatio: number;
}

export async function benchInspect(cases: InspectCase[], rounds: number, log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  for (const item of cases) {
    const ours: ChildResult[] = [];
    const reference: ChildResult[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? (['ours', 'reference'] as const) : (['reference', 'ours'] as const);
      for (const which of order) (which === 'ours' ? ours : reference).push(await inspectIn(which, item.file));
      const o = ours[ours.length - 1];
      const r = reference[reference.length - 1];
      const line = (c: ChildResult | undefined) =>
        `${msText(c?.ms ?? NaN)} (warm ${msText(c?.warmMs ?? NaN)}), ${mb(c?.peak ?? null)}`;
      log(`  ${item.label} round ${round + 1}: ours ${line(o)}; app-info-parser ${line(r)}`);
    }
    log(`    read by ours: ${ours[0]?.summary}; by app-info-parser: ${reference[0]?.summary}`);
    log(
      `    each child's RSS before its inspector loads (${fromSources ? 'node + tsx' : 'node'}): ${mb(ours[0]?.baseline ?? null)}`,
    );
    const ratio = median(ours.map((o, i) => (reference[i]?.ms ?? NaN) / o.ms));
    const oursPeak = Math.max(...ours.map((o) => o.peak));
    const referencePeak = Math.max(...reference.map((r) => r.peak));
    rows.push(
      {
        metric: `inspect ${item.label}: time`,
        ours: msText(median(ours.map((o) => o.ms))),
        reference: `${msText(median(reference.map((r) => r.ms)))} app-info-parser`,
        ratio: `${fixed(ratio, 1)}x`,
        target: `>= ${item.minRatio}x`,
        pass: ratio >= item.minRatio,
      },
      {
        metric: `inspect ${item.label}: peak RSS`,
        ours: mb(oursPeak),
        reference: `${mb(referencePeak)} app-info-parser`,
        ratio: '-',
        target: '< 150 MiB',
        pass: oursPeak < RSS_TARGET,
      },
    );
  }
  return rows;
}
