import { createHash } from 'node:crypto';

/**
 * A file of an app as the signer and the verifier see it: its bytes (binaries, plists, profiles, seals), or for a
 * resource only its digests, taken while it streamed past (CodeResources needs nothing else).
 */
export interface FileDigest {
  readonly size: number;
  readonly sha1: Buffer;
  readonly sha256: Buffer;
}
export type AppFile = Buffer | FileDigest;
export type AppFiles = Map<string, AppFile>;

export const isBytes = (file: AppFile | undefined): file is Buffer => Buffer.isBuffer(file);

/** The bytes at `path`, or undefined when absent or held as digests only. */
export function bytesAt(files: ReadonlyMap<string, AppFile>, path: string): Buffer | undefined {
  const file = files.get(path);
  return isBytes(file) ? file : undefined;
}

export const sha1Of = (file: AppFile): Buffer => (isBytes(file) ? createHash('sha1').update(file).digest() : file.sha1);
export const sha256Of = (file: AppFile): Buffer =>
  isBytes(file) ? createHash('sha256').update(file).digest() : file.sha256;

/** Digests of a stream's bytes, as it passes. */
export function createDigester() {
  const sha1 = createHash('sha1');
  const sha256 = createHash('sha256');
  let size = 0;
  return {
    update(chunk: Buffer) {
      sha1.update(chunk);
      sha256.update(chunk);
      size += chunk.length;
    },
    digest: (): FileDigest => ({ size, sha1: sha1.digest(), sha256: sha256.digest() }),
  };
}
