import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DialectName } from '../apps/server/src/db/database.ts';
import { readNewCommits } from '../apps/server/src/integrations/git/git-mirror.ts';
import { mirrorDirFor } from '../apps/server/src/integrations/git/remote-url.ts';
import { startProfile } from './lib-logs/cpu-profile.ts';
import { ownCpu, startCpu, type CpuReading } from './lib-logs/cpu-time.ts';
import { nothingStored, type GitRepo } from '../apps/server/src/integrations/git/testing/git-fixture.ts';
import { buildHistory, countCommits, MAIN_COMMITS, RELEASE_COMMITS, timeGitLog } from './lib-logs/git-history.ts';
import { percentile } from './lib-logs/measure.ts';
import { openBenchDb, seedApp } from './lib-logs/setup.ts';
import { DEEP_ITEMS, depthResults, depthSummary, measureRePollDepth } from './lib-logs/re-poll-depth.ts';
import type { Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';
import { timedSync, type SyncPhases } from './lib-logs/timed-sync.ts';

/**
 * Ingesting a real git history of 100,000 commits through the repository sync (createRepoSyncService.syncOnce over
 * file://, the real repositories, SQLite and PostgreSQL), against `git log` over the same repository printing what
 * the ingest stores (our format and each commit's changed files; the ratio to `git log` without files is printed too):
 * `npx tsx bench/git-ingest.ts [--quick] [--profile[=file.cpuprofile]]`. --quick: 20,000 commits. --profile: one more
 * pass as shipped, under the CPU profiler (top self time printed; the .cpuprofile written when a file is named).
 * BENCH_DATABASES=sqlite or =postgres runs one database. Temp files and PostgreSQL schemas go whatever happens.
 * Then a re-poll of a workflow of 1,000 synced commits against the same workflow grown to 1,000,000 stored items
 * (--quick: 200,000); `--re-poll` runs only that.
 */

const quick = process.argv.includes('--quick');
const rePollOnly = process.argv.includes('--re-poll');
const deepItems = quick ? DEEP_ITEMS / 5 : DEEP_ITEMS;
const depthRows: string[] = [];
/** What bench/RESULTS.md gets. */
const results: Row[] = [];
const profileArg = process.argv.find((a) => a.startsWith('--profile'));
const scale = quick ? 0.2 : 1;
const TARGET = 3;
/** Ingest passes per database; the verdict is the median of their ratios. */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const dialects = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as DialectName[];
const log = (line: string) => process.stdout.write(`${line}\n`);
const ownDir = !process.env.BENCH_DIR;
const workDir = process.env.BENCH_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'release-bench-git-'));
const cleanups: Array<() => Promise<void>> = [];
async function cleanUp(): Promise<void> {
  for (const clean of cleanups.splice(0).reverse())
    await clean().catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
  if (ownDir) fs.rmSync(workDir, { recursive: true, force: true });
}
// A reader that goes away (`| head`) must not skip the clean-up: writes to a closed stdout are dropped.
process.stdout.on('error', () => undefined);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const summary: string[] = [];
const cpuSummary: string[] = [];

type Phase = Exclude<keyof SyncPhases, 'mirroredCpu'>;

function printSyncs(syncs: SyncPhases[]): void {
  const columns: Phase[] = ['created', 'mirror', 'known', 'read', 'rows', 'insert', 'rest', 'total'];
  log(`    sync | ${columns.map((c) => c.padStart(8)).join(' | ')}`);
  const line = (label: string, p: SyncPhases) =>
    log(
      `    ${label.padEnd(4)} | ${columns.map((c) => (c === 'created' ? String(p[c]) : s(p[c])).padStart(8)).join(' | ')}`,
    );
  for (const [i, p] of syncs.entries()) line(String(i + 1), p);
}

/** shipped: syncOnce as the server runs it (one walk per sync, stored every 10,000 commits, at most 100,000 per sync). */
type Variant = 'shipped' | 'shipped, profiled';

interface Pass {
  variant: Variant;
  /** The syncs that stored something. */
  total: number;
  clone: number;
  rePoll: number;
  mirror: string;
  /** CPU seconds of the syncs that stored something, from the mirror being up to date to the end of the sync. */
  cpu: CpuReading;
  /** The median `git log` with files (and without) measured before this pass's syncs, and its CPU seconds. */
  reference: number;
  plain: number;
  referenceCpu: number;
}

/**
 * `git log` over the source repository, measured before each sync so both sides see the same machine: printing what
 * the ingest stores (our format and each commit's changed files, the target's reference), and our format alone.
 */
const references: number[] = [];
const plainReferences: number[] = [];
/** The CPU seconds of each reference run (git's own: user + system). */
const referenceCpu: number[] = [];
const plainReferenceCpu: number[] = [];

function timeReference(gitDir: string): void {
  for (const [times, cpu, withFiles] of [
    [references, referenceCpu, true],
    [plainReferences, plainReferenceCpu, false],
  ] as const) {
    const before = ownCpu().git;
    times.push(timeGitLog(gitDir, withFiles));
    cpu.push(ownCpu().git - before);
  }
}

/** syncOnce (or one uncapped sync) until nothing is new, on a fresh database and a fresh mirror directory. */
async function ingestPass(dialect: DialectName, repo: GitRepo, commits: number, variant: Variant): Promise<Pass> {
  const db = await openBenchDb(dialect, workDir, 'git');
  cleanups.push(() => db.close());
  const seeded = await seedApp(
    db,
    () => ({ tabName: '客户端', repoPath: repo.url, committers: [], defaultBranch: '' }),
    1,
  );
  const workflowId = seeded.workflowIds[0] ?? 0;
  const mirrorsDir = fs.mkdtempSync(path.join(workDir, `mirrors-${dialect}-`));
  cleanups.push(async () => fs.rmSync(mirrorsDir, { recursive: true, force: true }));
  const sync = timedSync(db.handle.db, mirrorsDir);
  const profiler = variant === 'shipped, profiled' ? await startProfile() : null;
  const measured = references.length;
  const syncs: SyncPhases[] = [];
  const cpu: CpuReading = { node: 0, git: 0, db: 0 };
  for (let round = 0; round < 50; round += 1) {
    if (!profiler) timeReference(path.join(repo.dir, '.git'));
    const workflow = await sync.workflows.findById(workflowId);
    if (!workflow) throw new Error('workflow missing');
    const reading = await startCpu(dialect === 'postgres' ? db.handle.db : null);
    const phases = await sync.syncOnce(workflow);
    const used = await reading.stop(phases.mirroredCpu);
    if (phases.result.error) throw new Error(`sync failed: ${phases.result.error}`);
    syncs.push(phases);
    if (phases.created === 0) break;
    for (const key of ['node', 'git', 'db'] as const) cpu[key] += used[key];
  }
  if (profiler) {
    const file = profileArg?.includes('=')
      ? profileArg.slice(profileArg.indexOf('=') + 1).replace('.cpuprofile', `-${dialect}.cpuprofile`)
      : undefined;
    log(
      `  CPU profile of this extra pass (this process only; git runs in its own)${file ? `, written to ${file}` : ''}:`,
    );
    for (const entry of await profiler.stop(file)) log(`    ${entry}`);
  }
  const ingestSyncs = syncs.filter((p) => p.created > 0);
  const stored = ingestSyncs.reduce((sum, p) => sum + p.created, 0);
  const rows = await db.handle.db
    .selectFrom('commit_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (stored !== commits || Number(rows.n) !== commits)
    throw new Error(`stored ${stored} (table: ${rows.n}) of ${commits} commits`);
  const sum = (key: Phase) => ingestSyncs.reduce((total, p) => total + p[key], 0);
  const clone = ingestSyncs[0]?.mirror ?? 0;
  log(
    `  ${variant}: ${ingestSyncs.length} sync(s) stored ${stored.toLocaleString('en')} commits, then one found nothing new:`,
  );
  printSyncs(syncs);
  log(
    `    summed: clone ${s(clone)}, later fetches ${s(sum('mirror') - clone)}, known ids ${s(sum('known'))}, read ${s(sum('read'))}, rows ${s(sum('rows'))}, insert ${s(sum('insert'))}, rest ${s(sum('rest'))}`,
  );
  const rePoll = syncs.at(-1)?.created === 0 ? (syncs.at(-1)?.total ?? NaN) : NaN;
  return {
    variant,
    total: sum('total'),
    clone,
    rePoll,
    mirror: mirrorDirFor(mirrorsDir, repo.url),
    cpu,
    reference: median(references.slice(measured)),
    plain: median(plainReferences.slice(measured)),
    referenceCpu: median(referenceCpu.slice(measured)),
  };
}

async function benchDialect(dialect: DialectName, repo: GitRepo, commits: number): Promise<void> {
  log(`\n== ${dialect}`);
  for (const list of [references, plainReferences, referenceCpu, plainReferenceCpu]) list.length = 0;
  const passes: Pass[] = [];
  // RUNS passes, each on a fresh database and a fresh mirror (its first sync clones): the verdict is their median.
  for (let run = 0; run < RUNS; run += 1) passes.push(await ingestPass(dialect, repo, commits, 'shipped'));
  // Apart from the measured passes: the sampling profiler slows every fork (a spawn of git took far longer under it).
  if (profileArg) await ingestPass(dialect, repo, commits, 'shipped, profiled');
  log(`    (process peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB)`);
  const mirror = passes[0]?.mirror ?? '';
  const walk = { plain: performance.now(), files: 0 };
  const all = await readNewCommits(mirror, { branches: [], committers: [] }, nothingStored, {
    maxCommits: commits + 1,
    withFiles: false,
  });
  walk.plain = performance.now() - walk.plain;
  walk.files = performance.now();
  await readNewCommits(mirror, { branches: [], committers: [] }, nothingStored, { maxCommits: commits + 1 });
  walk.files = performance.now() - walk.files;
  const reference = median(references);
  const plain = median(plainReferences);
  log(
    `  git log --all --date-order -z <our format> --name-status --no-renames --diff-merges=first-parent --root > /dev/null (what the ingest reads), before each sync: median ${s(reference)} of ${references.length} (${s(Math.min(...references))} to ${s(Math.max(...references))})`,
  );
  log(
    `  the same without --name-status (no changed files: git diffs nothing): median ${s(plain)} (${s(Math.min(...plainReferences))} to ${s(Math.max(...plainReferences))})`,
  );
  log(
    `  readNewCommits alone, all ${all.commits.length.toLocaleString('en')} commits in one call: ${s(walk.plain)} without files, ${s(walk.files)} with files`,
  );
  log(
    `  re-poll of the fully stored repository (fetch, known ids, a walk from the tips the last sync walked, nothing new): ${s(passes[0]?.rePoll ?? NaN)}`,
  );
  const refCpu = median(referenceCpu);
  const plainCpu = median(plainReferenceCpu);
  for (const pass of passes) {
    const { node, git, db } = pass.cpu;
    log(
      `  run ${passes.indexOf(pass) + 1}: ${s(pass.total - pass.clone)} without the clone (clone ${s(pass.clone)}), git log ${s(pass.reference)} → ${((pass.total - pass.clone) / pass.reference).toFixed(2)}x; CPU node ${node.toFixed(2)} s + git ${git.toFixed(2)} s${dialect === 'postgres' ? ` + PostgreSQL ${db.toFixed(2)} s` : ''}; git log ${pass.referenceCpu.toFixed(2)} s of CPU (${plainCpu.toFixed(2)} s without files)`,
    );
  }
  const mid = (pick: (pass: Pass) => number) => median(passes.map(pick));
  const range = (pick: (pass: Pass) => number, format: (v: number) => string) => {
    const values = passes.map(pick);
    return `${format(Math.min(...values))}–${format(Math.max(...values))}`;
  };
  const ours = (pass: Pass) => pass.total - pass.clone;
  const ratioOf = (pass: Pass) => ours(pass) / pass.reference;
  const cpuOf = (pass: Pass) => pass.cpu.node + pass.cpu.git + pass.cpu.db;
  const x = (v: number) => `${v.toFixed(1)}x`;
  const ratio = mid(ratioOf);
  const cpuText = `node ${mid((p) => p.cpu.node).toFixed(2)} + git ${mid((p) => p.cpu.git).toFixed(2)}${dialect === 'postgres' ? ` + PostgreSQL ${mid((p) => p.cpu.db).toFixed(2)}` : ''} = ${mid(cpuOf).toFixed(2)} s vs git log's ${refCpu.toFixed(2)} s (${(mid(cpuOf) / refCpu).toFixed(1)}x)`;
  summary.push(
    `${dialect.padEnd(10)} | ${s(mid(ours))} (${range(ours, s)}) | ${s(mid((p) => p.reference))} | ${x(ratio)} (${range(ratioOf, x)}) | <= ${TARGET}x | ${ratio <= TARGET ? 'PASS' : 'MISS'} | ${cpuText} | ${s(mid((p) => p.clone))} (${range((p) => p.clone, s)}) | ${x(mid((p) => ours(p) / p.plain))} git log's ${s(mid((p) => p.plain))} without files`,
  );
  results.push({
    metric: `${dialect}: git ingest of ${commits.toLocaleString('en')} commits, median of ${RUNS} runs (first clone apart: ${s(mid((p) => p.clone))})`,
    ours: `${s(mid(ours))} (${range(ours, s)}); CPU ${mid(cpuOf).toFixed(2)} s`,
    reference: `git log with the files: ${s(mid((p) => p.reference))}; CPU ${refCpu.toFixed(2)} s`,
    ratio: `${x(ratio)} (${range(ratioOf, x)})`,
    target: `<= ${TARGET}x`,
    pass: ratio <= TARGET,
  });
  const bound = mid((p) => Math.max(p.cpu.node, p.cpu.git, p.cpu.db, cpuOf(p) / 2));
  cpuSummary.push(`${dialect.padEnd(10)} | ${cpuText} | on 2 idle cores about ${(bound / refCpu).toFixed(1)}x at best`);
}

const started = performance.now();
const loadAtStart = os.loadavg();
log(
  `git ingest bench${quick ? ' (--quick)' : ''}: node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)}, work dir ${workDir}`,
);
try {
  if (!rePollOnly) {
    const main = Math.round(MAIN_COMMITS * scale);
    const release = Math.round(RELEASE_COMMITS * scale);
    const building = performance.now();
    const repo = buildHistory(path.join(workDir, 'repo'), main, release);
    const commits = countCommits(path.join(repo.dir, '.git'));
    log(
      `repository: ${commits.toLocaleString('en')} commits (main ${main.toLocaleString('en')}, release/2.x ${release.toLocaleString('en')}, a tag every 1,000), built with fast-import in ${s(performance.now() - building)}`,
    );
    for (const dialect of dialects) await benchDialect(dialect, repo, commits);
  }
  for (const dialect of dialects) {
    const times = await measureRePollDepth(dialect, workDir, deepItems, log);
    depthRows.push(...depthSummary(dialect, deepItems, times));
    results.push(...depthResults(dialect, deepItems, times));
  }
} catch (error) {
  log(`\nthe bench stopped early: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
log(
  `\n${'database'.padEnd(10)} | ours, median of ${RUNS} runs (range): syncs until everything is stored, the first clone apart | reference: git log with the files stored (median) | ratio, median of the runs' | target | result | CPU seconds (medians) | the first clone, apart | against git log without files`,
);
for (const line of summary) log(line);
log(
  `\n${'CPU seconds (load-independent)'.padEnd(10)} | ours, summed over processes (medians) | what 2 idle cores would allow at best`,
);
for (const line of cpuSummary) log(line);
log(
  `\n${'re-poll as the history grows'.padEnd(38)} | median of 6, a workflow of 1,000 synced commits | another of the app, grown with generated older items | ratio | target | result`,
);
for (const line of depthRows) log(line);
log(`total ${s(performance.now() - started)}; load ${os.loadavg()[0]?.toFixed(1)}`);
if (results.length > 0) {
  recordResults(
    `git ingest and re-poll${quick ? ' (--quick)' : ''}${rePollOnly ? ' (--re-poll)' : ''}`,
    results,
    [],
    loadAtStart,
  );
  log('recorded in bench/RESULTS.md');
}
