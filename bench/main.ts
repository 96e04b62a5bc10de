import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDownload } from './download.ts';
import { benchInspect } from './inspect.ts';
import { writeBigApk, writeBigIpa, writeGameIpa } from './lib/fixtures.ts';
import { fromSources, peakRss, resetPeakRss } from './lib/proc.ts';
import { mb, MiB, msText, printTable, type Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';
import { startServer } from './lib/server.ts';
import { benchUpload, registerPackage } from './upload.ts';

/**
 * The benchmarks of uploads, inspection and downloads, each printed next to a reference measured in the
 * same run. Started by bench/run.mjs, which owns (and always removes) the working directory BENCH_DIR.
 */

const quick = process.argv.includes('--quick');
/** `--only=transfer` (upload and download) or `--only=inspect`: one half, while working on it. */
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
if (only && only !== 'transfer' && only !== 'inspect') throw new Error(`--only takes transfer or inspect, not ${only}`);
const benchDir = process.env.BENCH_DIR;
if (!benchDir || !fs.existsSync(benchDir))
  throw new Error('BENCH_DIR must name an existing directory (start through `npm run bench`)');
const workDir: string = benchDir;

const sizes = {
  apkBytes: (quick ? 256 : 1024) * MiB,
  ipaBytes: (quick ? 256 : 2048) * MiB,
  gameEntries: 50_000,
  /** Rounds of each pair; a download or an inspection takes a second or less, so those get more. */
  rounds: { upload: 7, download: 7, inspect: 5 },
};
const log = (line: string) => process.stdout.write(`${line}\n`);
const cleanups: Array<() => Promise<void>> = [];
async function cleanUp() {
  for (const clean of cleanups.splice(0).reverse())
    await clean().catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}

const rows: Row[] = [];
const notes: string[] = [];

/** (a) then (c): one server process for the uploads, the registration and the downloads. */
async function uploadAndDownload(): Promise<void> {
  log(`\n(a) upload: writing a ${mb(sizes.apkBytes)} apk …`);
  const apk = await writeBigApk(workDir, sizes.apkBytes);
  const server = await startServer(path.join(workDir, 'data'));
  cleanups.push(() => server.stop());
  log(`  server pid ${server.pid} at ${server.url}`);
  const upload = await benchUpload(server, apk, workDir, sizes.rounds.upload, log);
  rows.push(...upload.rows);
  notes.push(...upload.notes);
  // The peak of the inspection alone (the uploads' peak is its own row).
  const peakReset = resetPeakRss(server.pid);
  const registered = await registerPackage(server, upload.fileKey);
  notes.push(
    `registration (POST /api/v2/upload_app, the server inspecting the ${mb(apk.size)} apk): ${msText(registered.ms)}, read as ${registered.label}`,
  );
  const peakAfterInspection = peakRss(server.pid);
  rows.push({
    metric: `server peak RSS ${peakReset ? 'while' : 'after uploads and'} inspecting the ${mb(apk.size)} apk`,
    ours: mb(peakAfterInspection),
    reference: '-',
    ratio: '-',
    target: '<= 200 MiB',
    pass: peakAfterInspection === null ? null : peakAfterInspection <= 200 * MiB,
  });
  await fs.promises.rm(apk.file, { force: true });

  log(`\n(c) download through ${new URL(registered.cdnUrl).pathname} …`);
  const nginxDir = fs.mkdtempSync(path.join(workDir, 'nginx-'));
  const downloads = await benchDownload(
    server,
    registered.cdnUrl,
    upload.fileKey,
    nginxDir,
    sizes.rounds.download,
    log,
  );
  rows.push(...downloads.rows);
  notes.push(...downloads.notes);
  notes.push(`server peak RSS at the end (uploads, registration, downloads): ${mb(peakRss(server.pid))}`);
  await cleanUp();
  await fs.promises.rm(server.dataDir, { recursive: true, force: true });
}

/** (b): each inspector in its own child process, on a game-like ipa and a big one. */
async function inspection(): Promise<void> {
  log(`\n(b) inspection: writing a ${sizes.gameEntries}-entry game ipa and a ${mb(sizes.ipaBytes)} ipa …`);
  const game = await writeGameIpa(workDir, sizes.gameEntries);
  const big = await writeBigIpa(workDir, sizes.ipaBytes);
  const cases = [
    { label: `${game.entries}-entry ipa`, file: game.file, minRatio: 10 },
    { label: `${mb(big.size)} ipa`, file: big.file, minRatio: 1 },
  ];
  rows.push(...(await benchInspect(cases, sizes.rounds.inspect, log)));
}

const started = performance.now();
const loadAtStart = os.loadavg();
log(
  `release-system bench${quick ? ' (--quick)' : ''}, ${fromSources ? 'server and inspector from sources under tsx (--tsx)' : 'compiled server and inspector (as npm start runs them)'}: node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, load ${os.loadavg()[0]?.toFixed(1)}, work dir ${workDir}`,
);
let failure: unknown = null;
try {
  if (only !== 'inspect') await uploadAndDownload();
  if (only !== 'transfer') await inspection();
} catch (error) {
  failure = error;
} finally {
  await cleanUp();
}
log(
  `\nmedians of alternating rounds (upload ${sizes.rounds.upload}, download ${sizes.rounds.download}, inspection ${sizes.rounds.inspect}; ratio > 1: ours is better); total ${msText(performance.now() - started)}; load ${os.loadavg()[0]?.toFixed(1)}\n`,
);
printTable(rows, log);
for (const note of notes) log(`  · ${note}`);
if (rows.length > 0) {
  recordResults(
    `uploads, inspection, downloads${quick ? ' (--quick)' : ''}${only ? ` (--only=${only})` : ''}${fromSources ? ' (--tsx)' : ''}`,
    rows,
    notes,
    loadAtStart,
  );
  log(`\nrecorded in bench/RESULTS.md`);
}
if (failure) {
  log(`\nthe bench stopped early: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`);
  process.exitCode = 1;
}
