import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { download } from './lib/http-client.ts';
import { ensureNginx, startNginx, type Nginx } from './lib/nginx.ts';
import { fixed, mb, mbps, median, skipped, type Row } from './lib/report.ts';
import type { BenchServer } from './lib/server.ts';

/** (c) The package through the server's signed download URL, against nginx serving the same file. */

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** First half, then `Range: bytes=<half>-`, hashed as one: equal to the file's sha256 when resume works. */
async function verifyResume(url: string, file: string, size: number): Promise<Row> {
  const half = Math.floor(size / 2);
  const hash = createHash('sha256');
  const first = await download(url, { range: `bytes=0-${half - 1}`, hash });
  const rest = await download(url, { range: `bytes=${half}-`, hash });
  const got = hash.digest('hex');
  const want = await sha256File(file);
  const ok =
    first.status === 206 &&
    rest.status === 206 &&
    first.bytes === half &&
    rest.bytes === size - half &&
    rest.contentRange === `bytes ${half}-${size - 1}/${size}` &&
    got === want;
  return {
    metric: 'download resume (Range) byte for byte',
    ours: `${first.status}+${rest.status}, sha256 ${got.slice(0, 12)}…`,
    reference: `file sha256 ${want.slice(0, 12)}…`,
    ratio: '-',
    target: 'identical',
    pass: ok,
  };
}

export interface DownloadOutcome {
  rows: Row[];
  notes: string[];
}

/** Ours, nginx with sendfile and nginx without, in a rotating order each round; medians of the per-round ratios. */
export async function benchDownload(
  server: BenchServer,
  cdnUrl: string,
  fileKey: string,
  tempDir: string,
  rounds: number,
  log: (line: string) => void,
): Promise<DownloadOutcome> {
  const file = server.objectPath(fileKey);
  const size = fs.statSync(file).size;
  const metric = `download ${mb(size)} (signed URL)`;
  const resume = await verifyResume(cdnUrl, file, size);
  const found = ensureNginx(log);
  if ('reason' in found) {
    log(`  nginx reference skipped: ${found.reason}`);
    return { rows: [skipped(metric, '>= 0.90', found.reason), resume], notes: [] };
  }
  const servers: Nginx[] = [];
  try {
    for (const sendfile of [true, false]) {
      const dir = path.join(tempDir, sendfile ? 'sendfile' : 'copy');
      fs.mkdirSync(dir, { recursive: true });
      servers.push(await startNginx(found.binary, path.join(server.dataDir, 'blobs', 'objects'), dir, sendfile));
    }
  } catch (error) {
    for (const nginx of servers) await nginx.stop();
    const reason = `nginx did not start: ${String(error).split('\n')[0]}`;
    log(`  ${reason}`);
    return { rows: [skipped(metric, '>= 0.90', reason), resume], notes: [] };
  }
  try {
    const urls = [cdnUrl, ...servers.map((nginx) => `${nginx.url}/${fileKey}`)];
    const times = urls.map(() => [] as number[]);
    // Warm-up: from here on all three read the same file from the page cache.
    for (const url of urls) await download(url);
    for (let round = 0; round < rounds; round += 1) {
      for (let step = 0; step < urls.length; step += 1) {
        const which = (round + step) % urls.length;
        const url = urls[which] ?? '';
        const result = await download(url);
        if (result.status !== 200 || result.bytes !== size)
          throw new Error(`GET ${url}: HTTP ${result.status}, ${result.bytes} of ${size} bytes`);
        times[which]?.push(result.ms);
      }
      const [ours, sendfile, copy] = times.map((list) => list[list.length - 1] ?? NaN);
      log(
        `  round ${round + 1}: ours ${mbps(size, ours ?? NaN)}, nginx ${mbps(size, sendfile ?? NaN)} (sendfile off: ${mbps(size, copy ?? NaN)})`,
      );
    }
    const [ours = [], sendfile = [], copy = []] = times;
    const ratioTo = (reference: number[]) => median(ours.map((ms, i) => (reference[i] ?? NaN) / ms));
    const ratio = ratioTo(sendfile);
    return {
      rows: [
        {
          metric,
          ours: mbps(size, median(ours)),
          reference: `${mbps(size, median(sendfile))} nginx`,
          ratio: fixed(ratio),
          target: '>= 0.90',
          pass: ratio >= 0.9,
        },
        resume,
      ],
      notes: [
        `nginx with sendfile off (copying through user space, as Node must): ${mbps(size, median(copy))}; ours / that = ${fixed(ratioTo(copy))}`,
      ],
    };
  } finally {
    for (const nginx of servers) await nginx.stop();
  }
}
