import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow, CreatedApiToken } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { processMemory, resetPeakMemory, startServerChild, type ServerChild } from './helpers/server-child.ts';
import { curl } from './helpers/subprocess.ts';

/** Bigger than every buffer on the way (socket, busboy, stream high-water marks, S3 parts): only streaming keeps it out of memory. */
const FILE_BYTES = 256 * 1024 * 1024;
/** What the server may grow by while it streams the file: a quarter of it. Buffering it would take all of it. */
const GROWTH_BOUND = FILE_BYTES / 4;

/** A web zip of `bytes` zeros stored (not compressed) beside an index.html, written to disk as it is made. */
async function writeBigWebZip(file: string, bytes: number): Promise<void> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('<!doctype html><title>大包</title>'), 'index.html');
  const chunk = Buffer.alloc(1024 * 1024);
  zip.addReadStream(
    Readable.from(
      (function* () {
        for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk;
      })(),
    ),
    'assets/big.bin',
    { compress: false, size: bytes },
  );
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(file));
}

async function api<T>(server: ServerChild, method: string, urlPath: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${urlPath}`, {
    method,
    headers: { token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; msg: string; data: T };
  if (json.code !== 200) throw new Error(`${method} ${urlPath}: ${json.msg}`);
  return json.data;
}

describe.each(testDialects())(
  'a 256 MB package through curl -F on %s: the server process does not hold it',
  (dialect) => {
    let server: ServerChild;
    let tmp: string;
    let bigZip: string;
    let token: string;

    beforeAll(async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-direct-mem-'));
      bigZip = path.join(tmp, 'big-site.zip');
      await writeBigWebZip(bigZip, FILE_BYTES);
      server = await startServerChild(dialect);
      const session = (
        await api<{ token: string }>(server, 'POST', '/api/user/login', '', {
          username: server.admin.username,
          password: createHash('sha256').update(server.admin.password).digest('hex'),
        })
      ).token;
      await api(server, 'POST', '/api/app', session, {
        appName: '大包',
        appType: 'native',
        password: '135790',
        path: 'big',
      });
      token = (await api<CreatedApiToken>(server, 'POST', '/api/api_token', session, { name: 'ci' })).token;
      // A small publish first: the package-inspection worker threads start with the first package and stay
      // (tens of MiB once), which is not what this test measures.
      const warmUp = path.join(tmp, 'warm-up.zip');
      await writeBigWebZip(warmUp, 1024 * 1024);
      const warm = await curl([
        '-H',
        `Authorization: Bearer ${token}`,
        '-F',
        'path=big',
        '-F',
        `file=@${warmUp}`,
        `${server.url}/api/upload_app/direct`,
      ]);
      expect((JSON.parse(warm.stdout) as { code: number }).code).toBe(200);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('publishes it while the server’s peak memory grows by far less than the file', {
      timeout: 180_000,
    }, async () => {
      const before = processMemory(server.pid);
      resetPeakMemory(server.pid);
      const run = await curl([
        '-H',
        `Authorization: Bearer ${token}`,
        '-F',
        'path=big',
        '-F',
        'note=大文件',
        '-F',
        `file=@${bigZip}`,
        `${server.url}/api/upload_app/direct`,
      ]);
      const after = processMemory(server.pid);
      const answer = JSON.parse(run.stdout) as { code: number; msg: string; data: AppVersionRow };
      expect([answer.code, answer.msg]).toEqual([200, 'success']);
      expect(answer.data).toMatchObject({ nativePackageType: 'web', appSize: fs.statSync(bigZip).size });
      const growth = after.peak - before.rss;
      console.log(
        `${dialect}: server RSS ${(before.rss / 2 ** 20).toFixed(0)} MiB before, peak ${(after.peak / 2 ** 20).toFixed(0)} MiB while streaming ${(FILE_BYTES / 2 ** 20).toFixed(0)} MiB (growth ${(growth / 2 ** 20).toFixed(0)} MiB)`,
      );
      expect(growth).toBeLessThan(GROWTH_BOUND);
    });
  },
);
