import { createHash, randomBytes } from 'node:crypto';
import type https from 'node:https';
import { sampleApkEntries } from '@release/inspect/testing/sample-packages.ts';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { api, request } from './site-client.ts';

/** The traffic of the cluster bench: uploads through the real multipart API, downloads of signed links. */

export interface Stored {
  appId: number;
  cdnUrl: string;
  sha256: string;
  size: number;
}

export interface Tally {
  count: number;
  bytes: number;
  /** Milliseconds per request (downloads) or per whole upload. */
  times: number[];
  errors: number;
  /** The first few errors, to print. */
  samples: string[];
}

export const emptyTally = (): Tally => ({ count: 0, bytes: 0, times: [], errors: 0, samples: [] });

function fail(tally: Tally, message: string): void {
  tally.errors += 1;
  if (tally.samples.length < 5) tally.samples.push(message.slice(0, 300));
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * An apk no other upload has: the sample's manifest and signature, and `padBytes` of random bytes stored (not
 * deflated: deflating megabytes synchronously held the clients' event loop for seconds per upload on the loaded
 * machine, and every download with it).
 */
export function uniqueApk(label: string, padBytes: number): Buffer {
  const { entries, beforeCentralDirectory } = sampleApkEntries({ versionName: label });
  return buildZip([...entries, { name: 'assets/pad.bin', data: randomBytes(padBytes), method: 'store' }], {
    beforeCentralDirectory,
  });
}

/** get_signed_url → multipart start → PUT every part (two at a time) → finish → POST /api/v2/upload_app. */
export async function uploadPackage(
  agent: https.Agent,
  base: string,
  token: string,
  appId: number,
  bytes: Buffer,
  fileName: string,
): Promise<Stored> {
  const call = <T>(method: string, path: string, body?: unknown) => api<T>(agent, base, token, method, path, body);
  const keys = await call<{ appFile: { fileKey: string } | null }>('POST', '/api/get_signed_url', {
    appFileName: fileName,
  });
  const fileKey = keys.appFile?.fileKey;
  if (!fileKey) throw new Error('get_signed_url issued no key');
  const start = await call<{
    uploadId: string;
    partSize: number;
    uploadParamsList: Array<{ partNo: number; signedUrl: string }>;
  }>('POST', '/api/multi_signed_url_upload', { functionName: 'start', fileKey, fileSize: bytes.length });
  const queue = [...start.uploadParamsList];
  const tags: Array<{ partNo: number; etag: string }> = [];
  const putter = async () => {
    for (let part = queue.shift(); part; part = queue.shift()) {
      const from = (part.partNo - 1) * start.partSize;
      const answer = await request(agent, 'PUT', part.signedUrl, {
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes.subarray(from, Math.min(from + start.partSize, bytes.length)),
      });
      if (answer.status !== 200)
        throw new Error(`PUT part ${part.partNo}: HTTP ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`);
      tags.push({ partNo: part.partNo, etag: String(answer.headers.etag ?? '') });
    }
  };
  await Promise.all([putter(), putter()]);
  await call('POST', '/api/multi_signed_url_upload', {
    functionName: 'finish',
    fileKey,
    uploadId: start.uploadId,
    tags: tags.sort((a, b) => a.partNo - b.partNo),
  });
  const version = await call<{ cdnUrl: string }>('POST', '/api/v2/upload_app', {
    appId,
    s3Url: fileKey,
    description: 'scale bench',
  });
  return { appId, cdnUrl: version.cdnUrl, sha256: sha(bytes), size: bytes.length };
}

/** One uploader: a new package after another until `deadline`; every stored one is added to `stored`. */
export async function uploadLoop(
  agent: https.Agent,
  base: string,
  token: string,
  appIds: number[],
  worker: number,
  padBytes: number,
  deadline: number,
  tally: Tally,
  stored: Stored[],
): Promise<void> {
  for (let n = 0; Date.now() < deadline; n += 1) {
    const appId = appIds[worker % appIds.length] ?? 0;
    const bytes = uniqueApk(`9.${worker}.${n}`, padBytes);
    const started = performance.now();
    try {
      stored.push(await uploadPackage(agent, base, token, appId, bytes, `load-${worker}-${n}.apk`));
      tally.count += 1;
      tally.bytes += bytes.length;
      tally.times.push(performance.now() - started);
    } catch (error) {
      fail(tally, `upload ${worker}/${n}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Reads a stored package back through its link: true when every byte is there (size and SHA-256). */
export async function readBack(agent: https.Agent, file: Stored, tally: Tally): Promise<boolean> {
  const hash = createHash('sha256');
  const started = performance.now();
  try {
    const answer = await request(agent, 'GET', file.cdnUrl, { hash });
    const digest = hash.digest('hex');
    if (answer.status !== 200) fail(tally, `GET ${file.cdnUrl}: HTTP ${answer.status}`);
    else if (answer.bytes !== file.size || digest !== file.sha256)
      fail(
        tally,
        `GET ${file.cdnUrl}: ${answer.bytes} bytes, sha256 ${digest.slice(0, 12)}…; ${file.size} bytes, ${file.sha256.slice(0, 12)}… stored`,
      );
    else {
      tally.count += 1;
      tally.bytes += answer.bytes;
      tally.times.push(performance.now() - started);
      return true;
    }
  } catch (error) {
    fail(tally, `GET ${file.cdnUrl}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return false;
}

/** One downloader: the seed packages one after another until `deadline`, each checked byte for byte. */
export async function downloadLoop(
  agent: https.Agent,
  files: Stored[],
  worker: number,
  deadline: number,
  tally: Tally,
): Promise<void> {
  for (let n = worker; Date.now() < deadline; n += 1) {
    const file = files[n % files.length];
    if (file) await readBack(agent, file, tally);
  }
}
