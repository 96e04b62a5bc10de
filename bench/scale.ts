import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DialectName } from '../apps/server/src/db/database.ts';
import { ensureServerBundle } from '../apps/server/test/helpers/main-process.ts';
import { printTable, type Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';
import { benchCluster } from './lib-scale/cluster.ts';
import { generateStudio, type Studio } from './lib-scale/generate.ts';
import { latencyNotes, latencyRows, timePages } from './lib-scale/latency.ts';
import { describeSize, fraction, largeSize } from './lib-scale/size.ts';

/**
 * Scale figures (issue 22): `npx tsx bench/scale.ts [--only=latency|cluster]`, also `npm run bench -- --scale`.
 * 1. A large studio (500 apps, 200,000 versions, 20 million update items, 5,000 users; SCALE_* make it smaller) and
 *    the same at 1/100, generated on SQLite and PostgreSQL through the real migrations; the real server on each; the
 *    p95 of the pages a person opens, large against small (target ≤ 2×).
 * 2. Four server processes on PostgreSQL and one shared blob directory behind Debian's nginx running
 *    docs/deploy/nginx.conf: 200 concurrent downloads and 20 concurrent uploads for SCALE_CLUSTER_SECONDS (60 s);
 *    no error, every uploaded file read back with the same SHA-256.
 * BENCH_DATABASES=sqlite or =postgres runs one database. Everything generated is removed at the end, on failure and on
 * Ctrl-C too. Prints tables and appends them to bench/RESULTS.md.
 */

const root = path.resolve(import.meta.dirname, '..');
if (!fs.existsSync(path.join(root, 'apps/web/dist/install.html'))) {
  console.error(
    'scale bench: apps/web/dist/install.html is missing (the install page is measured); run `npm run build` first',
  );
  process.exit(1);
}

// The compiled server, rebuilt when older than its sources (the generator migrates with the sources' migrations), and
// the node options `npm start` gives it.
const nodeArgs = await ensureServerBundle();
process.env.BENCH_SERVER_NODE_ARGS ??= nodeArgs.join(' ');

const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const dialects = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as DialectName[];
const SAMPLES = Number(process.env.SCALE_SAMPLES ?? 100);
const log = (line: string) => process.stdout.write(`${line}\n`);
const workDir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'release-scale-'));
const live = new Set<Studio>();
const cleanUps: Array<() => Promise<void>> = [];

async function cleanUp(): Promise<void> {
  for (const clean of cleanUps.splice(0)) await clean().catch(() => undefined);
  for (const studio of [...live]) {
    live.delete(studio);
    await studio.remove();
  }
  fs.rmSync(workDir, { recursive: true, force: true });
}
process.stdout.on('error', () => undefined);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

const itemsLabel = (size: { items: number }) =>
  size.items >= 1_000_000 ? `${size.items / 1_000_000}M items` : `${(size.items / 1000).toLocaleString('en')}k items`;

async function latency(): Promise<void> {
  const large = largeSize();
  const small = fraction(large, 100);
  log(`\n== page latency: ${describeSize(large)} against ${describeSize(small)} (1/100)`);
  const loadAtStart = os.loadavg();
  const rows: Row[] = [];
  const notes: string[] = [`large: ${describeSize(large)}; small: ${describeSize(small)}`];
  for (const dialect of dialects) {
    const tag = dialect === 'sqlite' ? 'sqlite' : 'pg';
    const smallStudio = await generateStudio(dialect, small, workDir, `${tag}_small`, log);
    live.add(smallStudio);
    const largeStudio = await generateStudio(dialect, large, workDir, `${tag}_large`, log);
    live.add(largeStudio);
    for (const studio of [smallStudio, largeStudio])
      notes.push(
        `${dialect} ${studio.label} generated in ${studio.timings.at(-1)?.[1].toFixed(0)} s: ${studio.timings
          .slice(0, -1)
          .filter(([, s]) => s >= 1)
          .map(([step, s]) => `${step} ${s.toFixed(0)} s`)
          .join(', ')}`,
      );
    log(`  timing ${SAMPLES} requests per page on each (alternating):`);
    const timings = await timePages(largeStudio, smallStudio, SAMPLES, log);
    rows.push(...latencyRows(dialect, timings, itemsLabel(large), itemsLabel(small)));
    notes.push(...latencyNotes(dialect, timings));
    for (const studio of [largeStudio, smallStudio]) {
      live.delete(studio);
      await studio.remove();
    }
  }
  log('');
  printTable(rows, log);
  recordResults(`scale: page latency at ${describeSize(large)} vs 1/100`, rows, notes, loadAtStart);
}

async function cluster(): Promise<void> {
  const loadAtStart = os.loadavg();
  const { rows, notes } = await benchCluster(workDir, log, (clean) => cleanUps.push(clean));
  log('');
  printTable(rows, log);
  recordResults('scale: 4 server processes behind nginx, concurrent downloads and uploads', rows, notes, loadAtStart);
}

const started = performance.now();
log(`scale bench: node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)}`);
try {
  if (only !== 'cluster') await latency();
  if (only !== 'latency') await cluster();
} catch (error) {
  log(`\nthe scale bench stopped early: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
log(`\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s; load ${os.loadavg()[0]?.toFixed(1)}`);
