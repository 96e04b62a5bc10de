import { createHash } from 'node:crypto';
import { median, type Row } from '../lib/report.ts';
import { ADMIN } from '../lib/server.ts';
import {
  downloadLoop,
  emptyTally,
  readBack,
  uniqueApk,
  uploadLoop,
  uploadPackage,
  type Stored,
  type Tally,
} from './cluster-load.ts';
import { PROCESSES, startSite } from './cluster-site.ts';
import { api, siteAgent } from './site-client.ts';

/**
 * Four server processes behind nginx under SCALE_DOWNLOADERS (200) concurrent downloads and SCALE_UPLOADERS (20)
 * concurrent uploads for SCALE_CLUSTER_SECONDS (60 s); then every uploaded package is read back and compared.
 */

const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = number('SCALE_CLUSTER_SECONDS', process.argv.includes('--quick') ? 20 : 60);
const DOWNLOADERS = number('SCALE_DOWNLOADERS', 200);
const UPLOADERS = number('SCALE_UPLOADERS', 20);
const MiB = 1024 * 1024;
/** Each upload: the sample apk plus 6 MiB of random bytes (two 5 MB parts). */
const UPLOAD_PAD = 6 * MiB;
/** What the downloaders fetch: three packages of 1, 4 and 16 MiB. */
const SEED_PADS = [1 * MiB, 4 * MiB, 16 * MiB];
const APPS = 4;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const rate = (t: Tally, ms: number) => `${(t.bytes / MiB / (ms / 1000)).toFixed(1)} MiB/s`;

export async function benchCluster(
  workDir: string,
  log: (line: string) => void,
  onCleanUp: (clean: () => Promise<void>) => void,
): Promise<{ rows: Row[]; notes: string[] }> {
  log(
    `\n== ${PROCESSES} server processes behind nginx: ${DOWNLOADERS} downloads and ${UPLOADERS} uploads at once for ${SECONDS} s`,
  );
  const site = await startSite(workDir, log);
  onCleanUp(site.stop);
  const control = siteAgent(site.certificate, 8);
  const login = await api<{ token: string }>(control, site.url, '', 'POST', '/api/user/login', {
    username: ADMIN.username,
    password: createHash('sha256').update(ADMIN.password).digest('hex'),
  });
  const token = login.token;
  const appIds: number[] = [];
  for (let n = 1; n <= APPS; n += 1)
    appIds.push(
      (
        await api<{ appId: number }>(control, site.url, token, 'POST', '/api/app', {
          appName: `负载测试${n}`,
          appType: 'native',
          password: '246810',
          path: `load-${n}`,
        })
      ).appId,
    );
  const seeds: Stored[] = [];
  for (const [n, pad] of SEED_PADS.entries())
    seeds.push(
      await uploadPackage(control, site.url, token, appIds[0] ?? 0, uniqueApk(`1.0.${n}`, pad), `seed-${n}.apk`),
    );
  log(
    `  seeded ${seeds.length} packages (${seeds.map((s) => `${(s.size / MiB).toFixed(1)} MiB`).join(', ')}); load for ${SECONDS} s …`,
  );

  const downloads = emptyTally();
  const uploads = emptyTally();
  const uploaded: Stored[] = [];
  const downloadAgent = siteAgent(site.certificate, DOWNLOADERS);
  const uploadAgent = siteAgent(site.certificate, UPLOADERS * 2);
  const started = performance.now();
  const deadline = Date.now() + SECONDS * 1000;
  await Promise.all([
    ...Array.from({ length: DOWNLOADERS }, (_, w) => downloadLoop(downloadAgent, seeds, w, deadline, downloads)),
    ...Array.from({ length: UPLOADERS }, (_, w) =>
      uploadLoop(uploadAgent, site.url, token, appIds, w, UPLOAD_PAD, deadline, uploads, uploaded),
    ),
  ]);
  const elapsed = performance.now() - started;
  log(
    `  ${downloads.count} downloads, ${uploads.count} uploads in ${(elapsed / 1000).toFixed(1)} s; reading every upload back …`,
  );

  const verified = emptyTally();
  for (const file of uploaded) await readBack(control, file, verified);
  // Nothing lost in the database either: each app lists every version registered to it.
  let listed = 0;
  for (const appId of appIds)
    listed += (
      await api<unknown[]>(control, site.url, token, 'GET', `/api/app_versions?appId=${appId}&pageNo=1&pageSize=1000`)
    ).length;
  const registered = uploaded.length + seeds.length;
  const alive = site.servers.filter((s) => s.isRunning()).length;
  for (const agent of [control, downloadAgent, uploadAgent]) agent.destroy();

  const rows: Row[] = [
    {
      metric: `downloads (${DOWNLOADERS} at once, ${SECONDS} s, through nginx)`,
      ours: `${downloads.count} downloads, ${rate(downloads, elapsed)}, ${downloads.errors} errors`,
      reference: `p95 ${percentile(downloads.times, 95).toFixed(0)} ms, median ${median(downloads.times).toFixed(0)} ms`,
      ratio: '-',
      target: 'no error, every byte equal',
      pass: downloads.errors === 0 && downloads.count > 0,
    },
    {
      metric: `uploads (${UPLOADERS} at once, multipart + register)`,
      ours: `${uploads.count} uploads, ${rate(uploads, elapsed)}, ${uploads.errors} errors`,
      reference: `p95 ${percentile(uploads.times, 95).toFixed(0)} ms, median ${median(uploads.times).toFixed(0)} ms per upload`,
      ratio: '-',
      target: 'no error',
      pass: uploads.errors === 0 && uploads.count > 0,
    },
    {
      metric: 'uploads read back (size + SHA-256)',
      ours: `${verified.count} of ${uploaded.length} equal`,
      reference: `${verified.errors} differ or failed`,
      ratio: '-',
      target: 'all equal',
      pass: verified.errors === 0 && verified.count === uploaded.length,
    },
    {
      metric: 'versions listed after the load',
      ours: `${listed}`,
      reference: `${registered} registered`,
      ratio: '-',
      target: 'all listed',
      pass: listed === registered,
    },
    {
      metric: 'server processes still running',
      ours: `${alive} of ${PROCESSES}`,
      reference: '-',
      ratio: '-',
      target: `${PROCESSES}`,
      pass: alive === PROCESSES,
    },
  ];
  const notes = [
    `${PROCESSES} compiled server processes on one PostgreSQL schema, blobs in one shared directory (each DATA_DIR/blobs links to it), behind Debian's nginx with docs/deploy/nginx.conf (TLS, 2 workers); clients on the same 2 cores`,
    `uploads: the sample apk + ${UPLOAD_PAD / MiB} MiB random (unique), get_signed_url, multipart start, PUT 5 MB parts two at a time, finish, /api/v2/upload_app (inspection), across ${APPS} apps; downloads: the signed links of packages of ${SEED_PADS.map((p) => p / MiB).join(', ')} MiB (+ the apk), each hashed and compared`,
    ...[...downloads.samples, ...uploads.samples, ...verified.samples].map((s) => `error: ${s}`),
  ];
  return { rows, notes };
}
