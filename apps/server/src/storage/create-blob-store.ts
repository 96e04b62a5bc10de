import path from 'node:path';
import type { Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { createLocalBlobStore, type LocalBlobStore } from './local-blob-store.ts';
import { createS3BlobStore, type S3BlobStore } from './s3-blob-store.ts';
import type { UrlSigner } from './url-signer.ts';

export type ConfiguredBlobStore = LocalBlobStore | S3BlobStore;

/** The blob store the configuration asks for: local disk under DATA_DIR/blobs, or S3. */
export function createBlobStore(config: Config, deps: { signer: UrlSigner; clock: Clock }): ConfiguredBlobStore {
  if (config.STORAGE === 's3') {
    return createS3BlobStore({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET ?? '',
      accessKeyId: config.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? '',
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return createLocalBlobStore({ root: path.join(config.DATA_DIR, 'blobs'), ...deps });
}
