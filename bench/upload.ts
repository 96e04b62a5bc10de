import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { UPLOAD_PART_SIZE } from '@release/contract';
import { writePartAt } from '../apps/server/src/storage/part-writer.ts';
import { putParts, readWhole, type PartUrl } from './lib/http-client.ts';
import { cpuSeconds, currentRss, peakRss, syncDisks } from './lib/proc.ts';
import { fixed, MiB, mb, mbps, median, type Row } from './lib/report.ts';
import type { BenchServer } from './lib/server.ts';

/** (a) A package through the real multipart flow to local disk, against dd copying it to the same disk. */

const CONCURRENCY = 5;

/** The goal's reference (issue 23): dd copying the same package, already in the page cache, to the same disk. */
export const ddCommand = (source: string, target: string) => [
  'dd',
  `if=${source}`,
  `of=${target}`,
  'bs=4M',
  'conv=fsync',
];

function ddCopy(source: string, target: string): number {
  const [command, ...args] = ddCommand(source, target);
  const started = performance.now();
  const result = spawnSync(command ?? 'dd', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`dd failed: ${result.stderr?.toString().trim()}`);
  return performance.now() - started;
}

/**
 * The server's part writer alone, in this process: the package's 5 MB parts from memory, 5 in flight, each through
 * `writePartAt` (as the part route calls it) into a new preallocated file, then an fsync — the upload without HTTP,
 * to tell the writer's cost from the request path's. A diagnostic beside the goal's row, not the goal.
 */
async function writerOnce(bytes: Buffer, partSize: number, target: string): Promise<number> {
  const started = performance.now();
  const handle = await fsp.open(target, 'w');
  await handle.truncate(bytes.length);
  await handle.close();
  const parts = Math.ceil(bytes.length / partSize);
  let next = 0;
  const lane = async () => {
    for (let part = next++; part < parts; part = next++) {
      const slice = bytes.subarray(part * partSize, Math.min(bytes.length, (part + 1) * partSize));
      // Socket-sized chunks, as a request body arrives.
      const chunks = function* () {
        for (let at = 0; at < slice.length; at += 64 * 1024) yield slice.subarray(at, at + 64 * 1024);
      };
      await writePartAt(target, part * partSize, Readable.from(chunks()), slice.length, part + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  await fsyncFile(target);
  return performance.now() - started;
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

interface Uploaded {
  fileKey: string;
  /** Until `finish` answered. */
  transferMs: number;
  /** Plus the fsync of the stored object, so both sides measure bytes on disk. */
  durableMs: number;
}

/** get_signed_url → start → PUT 5 MB parts, 5 at a time, from memory (see putParts) → finish; then fsync the object. */
export async function uploadOnce(server: BenchServer, file: string, bytes: Buffer): Promise<Uploaded> {
  const size = bytes.length;
  const started = performance.now();
  const keys = await server.api<{ appFile: { fileKey: string } | null }>('POST', '/api/get_signed_url', {
    appFileName: path.basename(file),
  });
  const fileKey = keys.appFile?.fileKey;
  if (!fileKey) throw new Error('get_signed_url issued no key');
  const start = await server.api<{ uploadId: string; partSize: number; uploadParamsList: PartUrl[] }>(
    'POST',
    '/api/multi_signed_url_upload',
    { functionName: 'start', fileKey, fileSize: size },
  );
  const tags = await putParts(start.uploadParamsList, bytes, start.partSize, CONCURRENCY);
  await server.api('POST', '/api/multi_signed_url_upload', {
    functionName: 'finish',
    fileKey,
    uploadId: start.uploadId,
    tags,
  });
  const transferMs = performance.now() - started;
  await fsyncFile(server.objectPath(fileKey));
  return { fileKey, transferMs, durableMs: performance.now() - started };
}

export interface UploadOutcome {
  rows: Row[];
  notes: string[];
  /** The last upload, kept for registration and downloads. */
  fileKey: string;
}

export async function benchUpload(
  server: BenchServer,
  pkg: { file: string; size: number },
  workDir: string,
  rounds: number,
  log: (line: string) => void,
): Promise<UploadOutcome> {
  const idleRss = currentRss(server.pid);
  const ratios: number[] = [];
  const ours: number[] = [];
  const oursNoSync: number[] = [];
  const raw: number[] = [];
  const writer: number[] = [];
  const writerRatios: number[] = [];
  /** The server's CPU seconds per upload, user and system. */
  const cpu: Array<{ user: number; system: number }> = [];
  const bytes = readWhole(pkg.file);
  let fileKey = '';
  const written: string[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? (['ours', 'raw', 'writer'] as const) : (['writer', 'raw', 'ours'] as const);
    let uploaded: Uploaded | undefined;
    let rawMs = 0;
    let writerMs = 0;
    for (const side of order) {
      syncDisks();
      if (side === 'raw') rawMs = ddCopy(pkg.file, path.join(workDir, `raw-write-${round}.bin`));
      else if (side === 'writer')
        writerMs = await writerOnce(bytes, UPLOAD_PART_SIZE, path.join(workDir, `writer-${round}.bin`));
      else {
        const before = cpuSeconds(server.pid);
        uploaded = await uploadOnce(server, pkg.file, bytes);
        const after = cpuSeconds(server.pid);
        if (before && after) cpu.push({ user: after.user - before.user, system: after.system - before.system });
      }
    }
    if (!uploaded) throw new Error('no upload');
    // Nothing is deleted until every round is done, so both sides always write to space no file of this
    // run has just freed: on this machine's thin-provisioned virtual disk, rewriting blocks freed a moment
    // ago runs ~4x faster than writing fresh ones, and a reference that happened to reuse the previous
    // raw file's blocks read 1,100 MiB/s one round and 230 MiB/s the next.
    written.push(
      path.join(workDir, `writer-${round}.bin`),
      server.objectPath(uploaded.fileKey),
      path.join(workDir, `raw-write-${round}.bin`),
    );
    writer.push(writerMs);
    writerRatios.push(rawMs / writerMs);
    fileKey = uploaded.fileKey;
    ours.push(uploaded.durableMs);
    oursNoSync.push(uploaded.transferMs);
    raw.push(rawMs);
    ratios.push(rawMs / uploaded.durableMs);
    log(
      `  round ${round + 1}: upload ${mbps(pkg.size, uploaded.durableMs)} (finish answered at ${mbps(pkg.size, uploaded.transferMs)}), dd ${mbps(pkg.size, rawMs)}, writer alone ${mbps(pkg.size, writerMs)}`,
    );
  }
  // Only the last upload is kept (for registration and downloads).
  for (const file of written.slice(0, -2)) await fsp.rm(file, { force: true });
  await fsp.rm(written.at(-1) ?? '', { force: true });
  const peak = peakRss(server.pid);
  if (!fs.existsSync(server.objectPath(fileKey))) throw new Error('the uploaded object is missing');
  return {
    fileKey,
    rows: [
      {
        metric: `upload ${mb(pkg.size)} (multipart, 5x5 MB)`,
        ours: mbps(pkg.size, median(ours)),
        reference: `${mbps(pkg.size, median(raw))} dd bs=4M conv=fsync`,
        ratio: `${fixed(median(ratios))} (${fixed(Math.min(...ratios))}–${fixed(Math.max(...ratios))})`,
        target: '>= 0.80',
        pass: median(ratios) >= 0.8,
      },
      {
        metric: 'server RSS idle (after start and login)',
        ours: mb(idleRss),
        reference: '-',
        ratio: '-',
        target: '<= 120 MiB',
        pass: idleRss === null ? null : idleRss <= 120 * MiB,
      },
      {
        metric: 'server peak RSS after uploads',
        ours: mb(peak),
        reference: `${mb(idleRss)} idle`,
        ratio: '-',
        target: '<= 200 MiB',
        pass: peak === null ? null : peak <= 200 * MiB,
      },
    ],
    notes: [
      `upload until finish answered (before the fsync): median ${mbps(pkg.size, median(oursNoSync))}`,
      `the part writer alone (writePartAt in the bench process, 5 parts in flight from memory, no HTTP, then fsync): median ${mbps(pkg.size, median(writer))}, ${fixed(median(writerRatios))} of dd (${fixed(Math.min(...writerRatios))}–${fixed(Math.max(...writerRatios))}); what the upload loses beyond that is the request path's CPU`,
      `server CPU per upload (median): ${fixed(median(cpu.map((c) => c.user)))} s user + ${fixed(median(cpu.map((c) => c.system)))} s system`,
      `upload reference, each round: ${ddCommand(pkg.file, path.join(workDir, 'raw-write-<round>.bin')).join(' ')} (the package is in the page cache: the bench read it whole)`,
    ],
  };
}

/** POST /api/app, then POST /api/v2/upload_app: the uploaded file becomes a version (the server inspects it). */
export async function registerPackage(
  server: BenchServer,
  fileKey: string,
): Promise<{ cdnUrl: string; ms: number; label: string }> {
  const app = await server.api<{ appId: number }>('POST', '/api/app', {
    appName: '基准测试',
    appType: 'native',
    password: '246813',
    path: `bench${Date.now()}`,
  });
  const started = performance.now();
  const version = await server.api<{ cdnUrl: string; bundleId: string | null; appVersion: string | null }>(
    'POST',
    '/api/v2/upload_app',
    { appId: app.appId, s3Url: fileKey, description: 'benchmark' },
  );
  return {
    cdnUrl: version.cdnUrl,
    ms: performance.now() - started,
    label: `${version.bundleId ?? '?'} ${version.appVersion ?? '?'}`,
  };
}
