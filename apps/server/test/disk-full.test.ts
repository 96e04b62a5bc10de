import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@release/contract';
import { dropPostgresSchema } from '../src/db/database.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { startSignedInProcess, type SignedInProcess } from './helpers/signed-in-process.ts';
import { mountSmallDisk, type SmallDisk } from './helpers/small-disk.ts';

/** How long a condition may take to come about on a loaded machine (the server project's default is 1 s). */
const WAIT = { timeout: 15_000 };

interface Envelope<T = unknown> {
  status: number;
  body: { code: number; msg: string; data: T };
}

const storageFull = { code: 507, msg: Messages.storageFull, data: null };

// The real server process with its DATA_DIR (SQLite file and blob store) on a 32 MB filesystem that the test fills.
describe.each(testDialects())('a full disk under DATA_DIR (%s)', (dialect) => {
  const schema = `disk_${randomBytes(4).toString('hex')}`;
  let disk: SmallDisk;
  let server: SignedInProcess;

  async function call<T>(method: string, urlPath: string, body?: unknown): Promise<Envelope<T>> {
    const res = await fetch(`${server.url}${urlPath}`, {
      method,
      headers: { token: server.token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Envelope<T>['body'] };
  }

  beforeAll(async () => {
    disk = await mountSmallDisk(32);
    server = await startSignedInProcess({
      DATA_DIR: disk.dir,
      ...(dialect === 'postgres'
        ? {
            DATABASE_URL: TEST_POSTGRES_URL,
            DATABASE_SCHEMA: schema,
            SECRET_KEY: randomBytes(48).toString('base64url'),
          }
        : {}),
    });
  });
  afterAll(async () => {
    await server?.stop();
    await disk?.unmount();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
  });

  it('answers a part upload 507 服务器存储空间不足 at once, says so on /readyz, and the upload goes on once space is freed', async () => {
    const bytes = randomBytes(6 * 1024 * 1024);
    const keys = await call<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', {
      appFileName: 'full.apk',
    });
    const fileKey = keys.body.data.appFile.fileKey;
    const start = await call<{
      uploadId: string;
      partSize: number;
      uploadParamsList: Array<{ partNo: number; signedUrl: string }>;
    }>('POST', '/api/multi_signed_url_upload', {
      functionName: 'start',
      fileKey,
      fileSize: bytes.length,
    });
    const { uploadId, partSize, uploadParamsList } = start.body.data;
    const putPart = async (partNo: number) => {
      const signed = uploadParamsList[partNo - 1]?.signedUrl ?? '';
      const res = await fetch(new URL(signed, server.url), {
        method: 'PUT',
        body: bytes.subarray((partNo - 1) * partSize, partNo * partSize),
      });
      return { status: res.status, etag: res.headers.get('etag') ?? '', body: (await res.json()) as unknown };
    };

    if (dialect === 'sqlite') {
      // The write-ahead log emptied (the server is idle): any write now needs new space, as on a disk that filled up.
      const sqlite = new DatabaseSync(path.join(disk.dir, 'release.db'));
      sqlite.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      sqlite.close();
    }
    disk.fill();

    // The whole 5 MB part is answered (its rest read and dropped): a clear 507, not a reset connection or a hang.
    expect(await putPart(1)).toMatchObject({ status: 507, body: storageFull });
    // Creating an app writes in a transaction: on SQLite (same disk) it fails whole, with the same answer.
    const app = await call('POST', '/api/app', {
      appName: '磁盘满时',
      appType: 'native',
      password: '246810',
      path: 'full1',
    });
    if (dialect === 'sqlite') expect(app).toEqual({ status: 507, body: storageFull });
    else expect(app.status).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await expect
      .poll(async () => {
        const res = await fetch(`${server.url}/readyz`);
        return { status: res.status, body: await res.json() };
      }, WAIT)
      .toEqual({
        status: 503,
        body: {
          code: 503,
          msg: '服务未就绪：存储空间已满',
          data: { status: 'not ready', database: 'ok', storage: 'full' },
        },
      });

    disk.free();
    const parts = [await putPart(1), await putPart(2)];
    expect(parts.map((p) => p.status)).toEqual([200, 200]);
    const finish = await call('POST', '/api/multi_signed_url_upload', {
      functionName: 'finish',
      fileKey,
      uploadId,
      tags: parts.map((p, i) => ({ partNo: i + 1, etag: p.etag })),
    });
    expect(finish).toMatchObject({ status: 200, body: { code: 200, data: { fileKey, fileSize: bytes.length } } });
    expect(
      (await call('POST', '/api/app', { appName: '空间释放后', appType: 'native', password: '246810', path: 'full2' }))
        .status,
    ).toBe(200);
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, WAIT).toBe(200);
    expect(server.isRunning()).toBe(true);
  });
});
