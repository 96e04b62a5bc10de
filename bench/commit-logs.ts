import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DialectName } from '../apps/server/src/db/database.ts';
import { buildCases, serviceOn, type Case, type RepoPatch } from './lib-logs/cases.ts';
import { committers } from './lib-logs/dataset.ts';
import { captureQueries, explain, FAST_CALL_MS, timePair, type PlanVerdict } from './lib-logs/measure.ts';
import { printPlans, printQueryTable, queryResults, verdict, type QueryRow } from './lib-logs/report.ts';
import type { Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';
import { buildDataset, type BenchDb } from './lib-logs/setup.ts';

/**
 * Update-item queries at 1,000,000 rows against the same queries at 1,000 rows, on SQLite and PostgreSQL, through
 * the real commit-logs service: `npx tsx bench/commit-logs.ts [--quick]`. --quick loads 100,000 rows instead.
 * BENCH_DATABASES=sqlite or =postgres runs one database; BENCH_DIR names a working directory to use (else a temp one).
 * Every SQLite file and PostgreSQL schema is removed at the end, on failure and on Ctrl-C too.
 */

const quick = process.argv.includes('--quick');
const LARGE = quick ? 100_000 : 1_000_000;
const SMALL = 1_000;
const ITERATIONS = quick ? 10 : 30;
/** Timed calls of a query under FAST_CALL_MS (measure.ts timePair): its p95 is then a figure, not one GC pause. */
const FAST_ITERATIONS = quick ? 50 : 200;
const dialects = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as DialectName[];
const sizeLabel = (rows: number) => (rows >= 1_000_000 ? `${rows / 1_000_000}M` : `${rows / 1000}k`);

const log = (line: string) => process.stdout.write(`${line}\n`);
const ownDir = !process.env.BENCH_DIR;
const workDir = process.env.BENCH_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'release-bench-logs-'));
const open = new Set<BenchDb>();
async function cleanUp(): Promise<void> {
  for (const db of [...open]) {
    open.delete(db);
    await db.close().catch((error: unknown) => log(`clean-up of a ${db.dialect} database failed: ${String(error)}`));
  }
  if (ownDir) fs.rmSync(workDir, { recursive: true, force: true });
}
// A reader that goes away (`| head`) must not skip the clean-up: writes to a closed stdout are dropped.
process.stdout.on('error', () => undefined);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

/** The plan of the list query a case runs (the last one, for cases that walk several pages). */
async function planOf(db: BenchDb, item: Case, patch?: RepoPatch): Promise<PlanVerdict | null> {
  const capture = captureQueries(db.handle.db);
  await item.run(serviceOn(capture.db, patch));
  // The page query of list(), the committer names' skip scan (raw SQL), or the calendar's counts (GROUP BY over the
  // day and hour counts of migration 065; the last is the hour read of a window's cut days when there is one).
  const list = capture
    .take()
    .filter(
      (q) =>
        (q.sql.includes('from "commit_logs" as "c"') && q.sql.includes('order by')) ||
        q.sql.includes('with recursive') ||
        (/from "commit_log(s|_days|_hours)"/.test(q.sql) && q.sql.includes('group by')),
    );
  const last = list.at(-1);
  return last ? explain(db.handle.db, db.dialect, last) : null;
}

async function measure(
  small: BenchDb,
  large: BenchDb,
  smallCases: Case[],
  largeCases: Case[],
  patch?: RepoPatch,
): Promise<QueryRow[]> {
  const rows: QueryRow[] = [];
  const services = { small: serviceOn(small.handle.db, patch), large: serviceOn(large.handle.db, patch) };
  for (const item of largeCases) {
    const twin = smallCases.find((c) => c.name === item.name);
    if (!twin) continue;
    // Both sizes call by call in alternation, the order flipped each round (timePair).
    const { small: smallTiming, large: largeTiming } = await timePair(
      () => twin.run(services.small),
      () => item.run(services.large),
      ITERATIONS,
      FAST_ITERATIONS,
    );
    if (patch) {
      // The proposed query must show exactly what the shipped one shows.
      const [shipped, tried] = [await item.run(serviceOn(large.handle.db)), await item.run(services.large)];
      if (shipped.join() !== tried.join())
        throw new Error(`${item.name}: the proposed list() shows other items than the shipped one`);
    }
    const row: QueryRow = {
      name: item.name,
      small: smallTiming,
      large: largeTiming,
      smallPlan: await planOf(small, twin, patch),
      largePlan: await planOf(large, item, patch),
      depth: item.depth,
    };
    log(
      `    ${row.name} (depth ${twin.depth} / ${item.depth}): ${verdict(row)} p95 ${row.small.p95.toFixed(2)} / ${row.large.p95.toFixed(2)} ms`,
    );
    rows.push(row);
  }
  return rows;
}

/** What bench/RESULTS.md gets, both databases. */
const results: Row[] = [];

async function benchDialect(dialect: DialectName): Promise<void> {
  log(
    `\n== ${dialect}: loading ${SMALL.toLocaleString('en')} and ${LARGE.toLocaleString('en')} update items over 200 workflows …`,
  );
  const small = await buildDataset(dialect, workDir, SMALL, log);
  open.add(small);
  const large = await buildDataset(dialect, workDir, LARGE, log);
  open.add(large);
  const people = committers();
  // The most prolific committer (Zipf rank 1) and one of rank 150 (about 0.1% of the items; at 1k that is one item
  // or none, so the small side's full page of the same query shape is the top committer's).
  const [trend, rare] = [people[0]?.name ?? '', people[149]?.name ?? ''];
  const smallCases = await buildCases(small, trend, trend);
  const largeCases = await buildCases(large, trend, rare);
  log(
    `  measuring through createCommitLogsService, 1k and 1M call by call in alternation after 3 warm-ups each: ${FAST_ITERATIONS} timed calls of each size for a query under ${FAST_CALL_MS} ms, else ${ITERATIONS} (slow ones fewer):`,
  );
  const rows = await measure(small, large, smallCases, largeCases);
  const s = sizeLabel(SMALL);
  const l = sizeLabel(LARGE);
  printQueryTable(
    `${dialect}: commit-log queries, ${s} vs ${l} rows (the real service and repository)`,
    rows,
    s,
    l,
    log,
  );
  log(
    `  plans at ${l} (index: range read in order; walk: read in order, skipping rows the filter drops; sort/scan: every match read):`,
  );
  printPlans(rows, log);
  results.push(...queryResults(dialect, rows, s, l));
  for (const db of [small, large]) {
    open.delete(db);
    await db.close();
  }
}

const started = performance.now();
const loadAtStart = os.loadavg();
log(
  `commit-log query bench${quick ? ' (--quick)' : ''}: node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)}, work dir ${workDir}`,
);
try {
  for (const dialect of dialects) await benchDialect(dialect);
} catch (error) {
  log(`\nthe bench stopped early: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
log(`\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s; load ${os.loadavg()[0]?.toFixed(1)}`);
if (results.length > 0) {
  recordResults(`commit-log queries${quick ? ' (--quick)' : ''}`, results, [], loadAtStart);
  log('recorded in bench/RESULTS.md');
}
