// `npx tsx bench/retention.ts` (also run by `npm run bench`): the schedule 版本保留清理 removes 10,000 builds of one app
// (tombstones, then the durable job deletes their files) while users keep asking for `/api/apps`. The p99 of those
// requests during the job is set against their p99 without it, measured in the same run against the same server.
// Needs the built server (`npm run build`); records its table in bench/RESULTS.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { JOB_SCHEDULES_PATH, RETENTION_PATH } from '@release/contract';
import { createApi } from '../e2e/helpers/api.ts';
import { E2E_ADMIN, startServerProcess } from '../e2e/helpers/server-process.ts';
import { fixed, msText, printTable, type Row } from './lib/report.ts';
import { recordResults } from './lib/results.ts';

const BUILDS = Number(process.env.BENCH_RETENTION_BUILDS ?? 10_000);
const FILE_BYTES = 4096;
/** Requests in flight at once, as a handful of people using the console. */
const CONCURRENCY = 4;
const BASELINE_REQUESTS = 1500;
const TARGET_RATIO = 2;
const log = (line: string) => process.stdout.write(`${line}\n`);

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
};

/** GET /api/apps by `CONCURRENCY` clients until `done()` (checked between requests); answers each request's ms. */
async function load(url: string, token: string, done: (count: number) => boolean): Promise<number[]> {
  const times: number[] = [];
  const client = async () => {
    while (!done(times.length)) {
      const started = performance.now();
      const res = await fetch(`${url}/api/apps?pageNo=1&pageSize=20`, { headers: { token } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`/api/apps: HTTP ${res.status}`);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return times;
}

/** The builds and their files, written as an upload would have left them (straight into the server's SQLite file). */
function seed(dataDir: string, appId: number): void {
  const folder = path.join(dataDir, 'blobs', 'objects', 'packages', 'bench');
  fs.mkdirSync(folder, { recursive: true });
  const bytes = Buffer.alloc(FILE_BYTES, 1);
  for (let i = 1; i <= BUILDS; i++) fs.writeFileSync(path.join(folder, `${i}.apk`), bytes);
  const db = new DatabaseSync(path.join(dataDir, 'release.db'));
  db.exec('PRAGMA busy_timeout = 30000');
  const insert = db.prepare(`insert into app_versions (app_id, index_no, native_package_type, file_key, file_name,
    app_size, app_version, build, bundle_id, display_name, icon_key, description, attach_files, metadata, warnings,
    expire_date, chat_env, upload_by, create_time, update_time)
    values (?, ?, 'android', ?, ?, ?, ?, ?, 'com.example.bench', '基准', null, '', '[]', '{}', '[]', null, null, null, ?, ?)`);
  const start = Date.now() - BUILDS * 60_000;
  db.exec('begin');
  for (let i = 1; i <= BUILDS; i++) {
    const time = start + i * 60_000;
    insert.run(appId, i, `packages/bench/${i}.apk`, `bench-${i}.apk`, FILE_BYTES, `1.0.${i}`, String(i), time, time);
  }
  db.exec('commit');
  db.close();
}

async function main(): Promise<void> {
  const server = await startServerProcess();
  try {
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    // A few apps in the list, as a studio has.
    for (let n = 1; n <= 10; n++) await api.createApp(admin, { appName: `应用 ${n}`, path: `app-${n}` });
    const appId = await api.createApp(admin, { appName: '基准应用', path: 'bench', appType: 'native' });
    log(`seeding ${BUILDS} builds of ${FILE_BYTES} B …`);
    seed(server.dataDir, appId);

    await load(server.url, admin, (count) => count >= 100); // warm-up
    log('without the job …');
    const baseline = await load(server.url, admin, (count) => count >= BASELINE_REQUESTS);

    const folder = path.join(server.dataDir, 'blobs', 'objects', 'packages', 'bench');
    await api.call('POST', RETENTION_PATH, admin, { appId, enabled: true, keepLast: 1, keepDays: 0, quotaMb: 0 });
    const jobStarted = performance.now();
    await api.call('POST', `${JOB_SCHEDULES_PATH}/run`, admin, { name: 'retention' });
    log('during the job …');
    let left = BUILDS;
    let lastLook = 0;
    const during = await load(server.url, admin, () => {
      const now = performance.now();
      if (now - lastLook > 250) {
        lastLook = now;
        left = fs.readdirSync(folder).length;
      }
      // The newest build stays: its file is the one left.
      return left <= 1;
    });
    const jobMs = performance.now() - jobStarted;

    const base = p99(baseline);
    const busy = p99(during);
    const ratio = busy / base;
    const rows: Row[] = [
      {
        metric: `p99 of GET /api/apps while ${BUILDS.toLocaleString('en')} builds' files are deleted (${during.length} requests, ${CONCURRENCY} at once)`,
        ours: msText(busy),
        reference: `${msText(base)} without the job (${baseline.length} requests)`,
        ratio: `${fixed(ratio)}x`,
        target: `<= ${TARGET_RATIO}x`,
        pass: ratio <= TARGET_RATIO,
      },
    ];
    const notes = [
      `the schedule removed ${BUILDS - 1} builds and the job deleted their files in ${msText(jobMs)} (SQLite, local disk, ${os.cpus().length} cores)`,
    ];
    printTable(rows, log);
    for (const note of notes) log(note);
    recordResults(
      'Retention: deleting 10,000 builds’ files without blocking requests (bench/retention.ts)',
      rows,
      notes,
    );
  } finally {
    await server.stop();
  }
}

await main();
