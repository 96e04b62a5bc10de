import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { createS3BlobStore, type S3BlobStore } from '../../src/storage/s3-blob-store.ts';

export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** A real S3-protocol server in-process (s3rver) with one bucket, on loopback. */
export async function startS3Server(bucket = 'release-test') {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'release-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** startTestServer's `blobs` for a store name: the default local store (undefined), or S3 on a fresh s3rver; `close` stops it. */
export async function testStore(
  store: 'local' | 's3',
): Promise<{ blobs: (() => S3BlobStore) | undefined; close: () => Promise<void> }> {
  if (store === 'local') return { blobs: undefined, close: async () => {} };
  const s3 = await startS3Server();
  const s3Store = createS3BlobStore({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket: s3.bucket,
    forcePathStyle: true,
    ...S3_TEST_CREDENTIALS,
  });
  return { blobs: () => s3Store, close: s3.close };
}
