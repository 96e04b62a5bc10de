import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ConfiguredBlobStore } from './create-blob-store.ts';

/**
 * Runs `work` on a file on local disk holding the object: the object itself for the local store,
 * a temporary download (streamed, deleted afterwards) for S3. Inspectors need random access.
 */
export async function withLocalFile<T>(
  blobs: ConfiguredBlobStore,
  key: string,
  work: (filePath: string) => Promise<T>,
): Promise<T> {
  if (blobs.kind === 'local') return work(blobs.filePath(key));
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'release-inspect-'));
  const file = path.join(dir, 'package');
  try {
    await pipeline(await blobs.read(key), fs.createWriteStream(file));
    return await work(file);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
