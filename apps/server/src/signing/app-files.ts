import { createHash } from 'node:crypto';
import type { StreamedExecutable } from './streamed-macho.ts';

/**
 * A file of an app as the signer and the verifier see it: its bytes (binaries, plists, profiles, seals), or for a
 * resource only its digests, taken while it streamed past (CodeResources needs nothing else).
 */
export interface FileDigest {
  readonly size: number;
  readonly sha1: Buffer;
  readonly sha256: Buffer;
}
/** A large executable is neither: see streamed-macho.ts. */
export type AppFile = Buffer | FileDigest | StreamedExecutable;
export type AppFiles = Map<string, AppFile>;

export const isBytes = (file: AppFile | undefined): file is Buffer => Buffer.isBuffer(file);

/** The bytes at `path`, or undefined when absent or held as digests only. */
export function bytesAt(files: ReadonlyMap<string, AppFile>, path: string): Buffer | undefined {
  const file = files.get(path);
  return isBytes(file) ? file : undefined;
}

/**
 * A file's digests for a seal. A streamed executable has them once taken (a nested bundle's: its parent's seal holds
 * it); the main app's executable is in no seal.
 */
function digestOf(file: AppFile): FileDigest {
  if (!('streamed' in file)) return file as FileDigest;
  if (!file.digest) throw new Error('a streamed executable without its digests');
  return file.digest;
}
export const sha1Of = (file: AppFile): Buffer =>
  isBytes(file) ? createHash('sha1').update(file).digest() : digestOf(file).sha1;
export const sha256Of = (file: AppFile): Buffer =>
  isBytes(file) ? createHash('sha256').update(file).digest() : digestOf(file).sha256;

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

/**
 * Binaries read with room after their bytes (the view → the whole allocation): the signer writes the new signature
 * into that room and changes the header where it is, instead of making a second copy of a large executable.
 */
const withRoom = new WeakMap<Buffer, Buffer>();

/** A buffer of `size` bytes with room for a signature after them (one page-hash per 4 KiB page per hash, and more). */
export function allocWithRoom(size: number): Buffer {
  const room = Math.ceil(size / 4096) * (32 + 20) + 256 * 1024;
  const whole = Buffer.allocUnsafeSlow(size + room);
  const view = whole.subarray(0, size);
  withRoom.set(view, whole);
  return view;
}

/** `length` bytes over the same memory as `bytes`, when it was read with that much room; null otherwise. */
export function roomFor(bytes: Buffer, length: number): Buffer | null {
  const whole = withRoom.get(bytes);
  return whole && whole.length >= length ? whole.subarray(0, length) : null;
}
