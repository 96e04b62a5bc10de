import type { Readable } from 'node:stream';

export interface BlobPart {
  partNo: number;
  etag: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP Range. */
  end: number;
}

/**
 * Where packages, icons and attachments live: local disk or any S3-compatible store, chosen by config.
 * Multipart uploads follow S3's model (start → parts by signed URL → complete) on both.
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  startMultipart(
    key: string,
    options: { size: number; partSize: number; contentType: string },
  ): Promise<{ uploadId: string }>;
  /** A URL the client PUTs one part to. Local stores answer a server path; callers make it absolute. */
  partUploadUrl(key: string, uploadId: string, partNo: number, expiresInSec: number): Promise<string>;
  /**
   * Assembles the parts into the object; throws BlobError('incomplete') when a part is missing or
   * mismatched, or the result is not `expectedSize` bytes (nothing is kept then).
   */
  completeMultipart(key: string, uploadId: string, parts: BlobPart[], expectedSize: number): Promise<{ size: number }>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
  put(key: string, body: Readable | Buffer, options: { contentType: string }): Promise<{ size: number }>;
  stat(key: string): Promise<{ size: number } | null>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** A URL that downloads the object as `fileName`; local stores answer a server path. */
  downloadUrl(key: string, options: { expiresInSec: number; fileName: string; contentType: string }): Promise<string>;
  delete(key: string): Promise<void>;
}

export type BlobErrorReason = 'not_found' | 'incomplete' | 'invalid_key' | 'too_large' | 'no_upload';

export class BlobError extends Error {
  constructor(
    readonly reason: BlobErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'BlobError';
  }
}

const SAFE_KEY = /^(?!.*\.\.)(?!\/)[A-Za-z0-9._\-/]{1,512}$/;

/** Keys are made by the server, but checked anyway: no traversal, no absolute paths, no odd characters. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.endsWith('/') || key.includes('//'))
    throw new BlobError('invalid_key', `invalid blob key: ${key}`);
}
