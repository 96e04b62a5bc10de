import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobError } from '../src/storage/blob-store.ts';
import type { ConfiguredBlobStore } from '../src/storage/create-blob-store.ts';
import { createLocalBlobStore } from '../src/storage/local-blob-store.ts';
import { createS3BlobStore } from '../src/storage/s3-blob-store.ts';
import { createUrlSigner } from '../src/storage/url-signer.ts';
import { S3_TEST_CREDENTIALS, startS3Server } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const PART = 5 * 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// One contract, two stores: local disk behind our signed routes, and a real S3-protocol server.
describe.each(['local', 's3'] as const)('blob store contract: %s', (kind) => {
  let server: TestServer;
  let store: ConfiguredBlobStore;
  let cleanup: () => Promise<void>;
  const absolute = (url: string) => new URL(url, server.url).toString();

  beforeAll(async () => {
    if (kind === 's3') {
      const s3 = await startS3Server();
      store = createS3BlobStore({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        bucket: s3.bucket,
        forcePathStyle: true,
        ...S3_TEST_CREDENTIALS,
      });
      cleanup = s3.close;
      server = await startTestServer('sqlite');
    } else {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'release-blobs-'));
      server = await startTestServer('sqlite', {
        blobs: (clock) => {
          store = createLocalBlobStore({ root, signer: createUrlSigner('k'.repeat(32)), clock });
          return store;
        },
      });
      cleanup = async () => fs.rmSync(root, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await server?.close();
    await cleanup?.();
  });

  it('stores, stats, reads a range of and deletes an object', async () => {
    const body = randomBytes(100_000);
    expect(await store.put('icons/a/icon.png', Readable.from([body]), { contentType: 'image/png' })).toEqual({
      size: body.length,
    });
    expect(await store.stat('icons/a/icon.png')).toEqual({ size: body.length });
    expect(sha(await readAll(await store.read('icons/a/icon.png')))).toBe(sha(body));
    expect(await readAll(await store.read('icons/a/icon.png', { start: 10, end: 19 }))).toEqual(body.subarray(10, 20));
    await store.delete('icons/a/icon.png');
    expect(await store.stat('icons/a/icon.png')).toBeNull();
    await expect(store.read('icons/a/icon.png')).rejects.toBeInstanceOf(BlobError);
  });

  it('assembles a multipart upload sent by PUT to the signed part URLs', async () => {
    const body = randomBytes(PART * 2 + 1234);
    const key = 'packages/2026/11/game.ipa';
    const { uploadId } = await store.startMultipart(key, {
      size: body.length,
      partSize: PART,
      contentType: 'application/octet-stream',
    });
    const parts = [];
    // Out of order on purpose: parts arrive as the five parallel uploads finish.
    for (const partNo of [3, 1, 2]) {
      const url = absolute(await store.partUploadUrl(key, uploadId, partNo, 600));
      const res = await fetch(url, { method: 'PUT', body: body.subarray((partNo - 1) * PART, partNo * PART) });
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"?[0-9a-f]{32}"?$/);
      parts.push({ partNo, etag: etag ?? '' });
    }
    expect(await store.completeMultipart(key, uploadId, parts, body.length)).toEqual({ size: body.length });
    expect(sha(await readAll(await store.read(key)))).toBe(sha(body));
  });

  it('refuses to complete an upload with a missing part', async () => {
    const key = 'packages/2026/11/half.apk';
    const body = randomBytes(PART + 10);
    const { uploadId } = await store.startMultipart(key, {
      size: body.length,
      partSize: PART,
      contentType: 'application/octet-stream',
    });
    const res = await fetch(absolute(await store.partUploadUrl(key, uploadId, 1, 600)), {
      method: 'PUT',
      body: body.subarray(0, PART),
    });
    const parts = [{ partNo: 1, etag: res.headers.get('etag') ?? '' }];
    await expect(store.completeMultipart(key, uploadId, parts, body.length)).rejects.toMatchObject({
      reason: 'incomplete',
    });
    await store.abortMultipart(key, uploadId);
    expect(await store.stat(key)).toBeNull();
  });

  it('downloads through a signed URL with the file name, and resumes with Range', async () => {
    const body = randomBytes(300_000);
    await store.put('packages/dl/app.apk', body, { contentType: 'application/vnd.android.package-archive' });
    const url = absolute(
      await store.downloadUrl('packages/dl/app.apk', {
        expiresInSec: 600,
        fileName: '测试包 1.0.apk',
        contentType: 'application/vnd.android.package-archive',
      }),
    );
    const full = await fetch(url);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('测试包 1.0.apk')}`,
    );
    expect(sha(Buffer.from(await full.arrayBuffer()))).toBe(sha(body));
    const part = await fetch(url, { headers: { range: 'bytes=100000-' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(body.subarray(100000));
  });

  it('refuses keys that try to leave the store', async () => {
    for (const key of ['../etc/passwd', '/abs/key', 'a/../../b', 'a//b']) {
      await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toMatchObject({
        reason: 'invalid_key',
      });
    }
  });
});

describe('local blob store', () => {
  let server: TestServer;
  let store: ReturnType<typeof createLocalBlobStore>;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'release-blobs-'));
  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      blobs: (clock) => (store = createLocalBlobStore({ root, signer: createUrlSigner('s'.repeat(32)), clock })),
    });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('takes a finished file in without copying it (local store: a rename from its scratch folder)', async () => {
    const body = randomBytes(300_000);
    fs.mkdirSync(store.scratchDir, { recursive: true });
    const file = path.join(store.scratchDir, 'made.ipa');
    fs.writeFileSync(file, body);
    const inode = fs.statSync(file).ino;
    expect(await store.adopt('packages/resigned/9/resigned.ipa', file)).toEqual({ size: body.length });
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.statSync(store.filePath('packages/resigned/9/resigned.ipa')).ino).toBe(inode);
    expect(sha(await readAll(await store.read('packages/resigned/9/resigned.ipa')))).toBe(sha(body));
  });

  it('lets a reader read the bytes of a put while they are flushed, giving them their key only once it is done', async () => {
    const body = randomBytes(3 * 1024 * 1024 + 12_345);
    const chunks = Array.from({ length: Math.ceil(body.length / 65_536) }, (_, i) =>
      body.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const events: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const put = store
      .putReading('packages/direct/1/app.ipa', Readable.from(chunks), async (file) => {
        // Every byte is there to read, under a name of its own: the key does not exist yet.
        const whole = sha(fs.readFileSync(file)) === sha(body);
        events.push(
          `read ${whole ? 'every byte' : 'a torn file'}, key ${(await store.stat('packages/direct/1/app.ipa')) ? 'taken' : 'free'}`,
        );
        await gate;
        events.push('reader done');
        // What the reader concluded is its caller's business, not the store's.
        throw new Error('not a package');
      })
      .then((result) => {
        events.push('placed');
        return result;
      });
    await expect.poll(() => events).toEqual(['read every byte, key free']);
    release();
    expect(await put).toEqual({ size: body.length });
    expect(events).toEqual(['read every byte, key free', 'reader done', 'placed']);
    expect(sha(await readAll(await store.read('packages/direct/1/app.ipa')))).toBe(sha(body));
    // No temporary file is left beside it.
    expect(fs.readdirSync(path.dirname(store.filePath('packages/direct/1/app.ipa')))).toEqual(['app.ipa']);
  });

  it('answers 403 for a tampered or expired signature and 416 past the end', async () => {
    await store.put('f/x.bin', randomBytes(10), { contentType: 'application/octet-stream' });
    const url = new URL(
      await store.downloadUrl('f/x.bin', {
        expiresInSec: 60,
        fileName: 'x.bin',
        contentType: 'application/octet-stream',
      }),
      server.url,
    );
    expect((await fetch(new URL(url.toString().replace('x.bin&', 'y.bin&')))).status).toBe(403);
    expect((await fetch(url, { headers: { range: 'bytes=50-' } })).status).toBe(416);
    server.clock.advance(61_000);
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { msg: string }).msg).toContain('链接已过期');
  });

  it('refuses a part longer than its slot and keeps nothing of it', async () => {
    const { uploadId } = await store.startMultipart('p/big.ipa', {
      size: 100,
      partSize: PART,
      contentType: 'application/octet-stream',
    });
    const url = new URL(await store.partUploadUrl('p/big.ipa', uploadId, 1, 60), server.url);
    const res = await fetch(url, { method: 'PUT', body: randomBytes(150) });
    expect(res.status).toBe(400);
    await expect(store.completeMultipart('p/big.ipa', uploadId, [{ partNo: 1, etag: 'x' }], 100)).rejects.toMatchObject(
      { reason: 'incomplete' },
    );
  });

  it('refuses the parts and the completion of an upload whose meta.json was damaged, and still lists it for clean-up', async () => {
    const { uploadId } = await store.startMultipart('p/hurt.ipa', {
      size: 100,
      partSize: PART,
      contentType: 'application/octet-stream',
    });
    fs.writeFileSync(path.join(root, 'multipart', uploadId, 'meta.json'), '{"key":"p/hurt.ipa","size":"100"}');
    const res = await fetch(new URL(await store.partUploadUrl('p/hurt.ipa', uploadId, 1, 60), server.url), {
      method: 'PUT',
      body: randomBytes(100),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { msg: string }).msg).toMatch(
      /^分片上传失败：upload .* is damaged \(meta\.json: size: /,
    );
    await expect(store.completeMultipart('p/hurt.ipa', uploadId, [], 100)).rejects.toMatchObject({
      reason: 'no_upload',
      message: expect.stringContaining('partSize'),
    });
    expect((await store.listMultipart()).find((u) => u.uploadId === uploadId)).toMatchObject({ key: '' });
  });
});

// A fault-injecting flush: the local store's datasync of a part, observed or made to fail with EIO.
describe('local blob store: a part is on disk before its answer', () => {
  let server: TestServer;
  let store: ReturnType<typeof createLocalBlobStore>;
  let flush: (handle: FileHandle) => Promise<void> = (handle) => handle.datasync();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'release-blobs-'));
  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      blobs: (clock) =>
        (store = createLocalBlobStore({
          root,
          signer: createUrlSigner('d'.repeat(32)),
          clock,
          syncData: (handle) => flush(handle),
        })),
    });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const startUpload = async (key: string, size: number) => {
    const { uploadId } = await store.startMultipart(key, { size, partSize: PART, contentType: 'application/zip' });
    return { uploadId, url: new URL(await store.partUploadUrl(key, uploadId, 1, 60), server.url) };
  };

  it('answers a part with its etag only after its bytes were flushed', async () => {
    const body = randomBytes(200_000);
    const { uploadId, url } = await startUpload('d/ok.ipa', body.length);
    const events: string[] = [];
    flush = async (handle) => {
      events.push('flush called');
      await handle.datasync();
      events.push('flushed');
    };
    const res = await fetch(url, { method: 'PUT', body });
    events.push('answered');
    expect(res.status).toBe(200);
    expect(events).toEqual(['flush called', 'flushed', 'answered']);
    const etag = res.headers.get('etag') ?? '';
    await store.completeMultipart('d/ok.ipa', uploadId, [{ partNo: 1, etag }], body.length);
    expect(sha(await readAll(await store.read('d/ok.ipa')))).toBe(sha(body));
  });

  it('gives no etag and keeps no receipt when the flush fails (EIO): the part must be sent again', async () => {
    const body = randomBytes(200_000);
    const { uploadId, url } = await startUpload('d/lost.ipa', body.length);
    flush = async () => {
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    };
    const failed = await fetch(url, { method: 'PUT', body });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('etag')).toBeNull();
    // The etag the part would have had (CRC-32 and length, see part-writer.ts): the receipt, not the etag, is missing.
    const etag = `${crc32(body).toString(16).padStart(8, '0')}${body.length.toString(16).padStart(24, '0')}`;
    await expect(
      store.completeMultipart('d/lost.ipa', uploadId, [{ partNo: 1, etag }], body.length),
    ).rejects.toMatchObject({ reason: 'incomplete' });

    flush = (handle) => handle.datasync();
    const retried = await fetch(url, { method: 'PUT', body });
    expect(retried.status).toBe(200);
    await store.completeMultipart(
      'd/lost.ipa',
      uploadId,
      [{ partNo: 1, etag: retried.headers.get('etag') ?? '' }],
      body.length,
    );
    expect(sha(await readAll(await store.read('d/lost.ipa')))).toBe(sha(body));
  });
});
