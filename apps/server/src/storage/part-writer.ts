import fsp, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { BlobError } from './blob-store.ts';

/** Bytes gathered before one positional write. */
const BATCH_BYTES = 1024 * 1024;

async function writeAllAt(handle: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  const total = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
  let written = (await handle.writev(buffers, position)).bytesWritten;
  if (written === total) return;
  // A short write (rare on a regular file): finish it from one contiguous copy.
  const rest = Buffer.concat(buffers, total);
  while (written < total)
    written += (await handle.write(rest, written, total - written, position + written)).bytesWritten;
}

/**
 * A part's etag: CRC-32 of its bytes and their count, as 32 hex digits (the shape of an S3 part etag).
 * It is a receipt that `finish` checks, opaque to clients (the web app and the CLI echo it) and the same
 * for the same bytes, so a retried part keeps its etag. It used to be MD5: on the server's one JavaScript
 * thread that cost ~1.5 s of CPU per GiB and halved upload throughput; zlib's CRC-32 runs at several GB/s.
 */
function partEtag(crc: number, length: number): string {
  return `${(crc >>> 0).toString(16).padStart(8, '0')}${length.toString(16).padStart(24, '0')}`;
}

/**
 * Reads and drops what is left of a request body after its part failed (a full disk), up to the part's own length:
 * the answer then reaches the client on a connection still in order. A body left unread stalls the client's send
 * (the socket stops being read), and one destroyed resets the connection under the answer. Past the part's length
 * (a client sending more than its slot) the connection is cut.
 */
function discardRest(body: Readable, budget: number): void {
  let left = budget;
  body.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) body.destroy();
  });
  body.resume();
}

/** Flushes a written part's bytes to disk (`datasync`); the local store's tests put a failing one in its place. */
export type SyncData = (handle: FileHandle) => Promise<void>;
const datasync: SyncData = (handle) => handle.datasync();

/**
 * Streams one part's body into `file` at `offset`; answers its size and etag once the bytes are on disk (flushed
 * before the answer: a receipt the client holds is a part that survives a crash). The socket's ~64 KiB chunks
 * are gathered and written 1 MiB at a time with one positional writev, with no stream pipeline per chunk.
 * More than `expected` bytes is refused as soon as it is seen; a failed write (ENOSPC) fails the part at once. Either
 * way the rest of the body is read and dropped up to the part's length, so that the client gets the answer.
 */
export async function writePartAt(
  file: string,
  offset: number,
  body: Readable,
  expected: number,
  partNo: number,
  sync: SyncData = datasync,
): Promise<{ received: number; etag: string }> {
  const handle = await fsp.open(file, 'r+');
  let crc = 0;
  let received = 0;
  let position = offset;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batchBytes === 0) return;
    const buffers = batch;
    const length = batchBytes;
    batch = [];
    batchBytes = 0;
    await writeAllAt(handle, buffers, position);
    position += length;
  };
  try {
    for await (const chunk of body.iterator({ destroyOnReturn: false })) {
      const bytes = chunk as Buffer;
      received += bytes.length;
      if (received > expected) throw new BlobError('too_large', `part ${partNo} is larger than ${expected} bytes`);
      crc = crc32(bytes, crc);
      batch.push(bytes);
      batchBytes += bytes.length;
      if (batchBytes >= BATCH_BYTES) await flush();
    }
    await flush();
  } catch (error) {
    if (!body.destroyed && !body.readableEnded) discardRest(body, Math.max(0, expected - received));
    await handle.close();
    throw error;
  }
  // Durable before it is answered: the other parts in flight keep arriving meanwhile (docs/decisions.md).
  try {
    await sync(handle);
  } finally {
    await handle.close();
  }
  return { received, etag: partEtag(crc, received) };
}

/**
 * Writes a stream into an open new file 1 MiB at a time while flushing what is already written: one datasync at a
 * time runs beside the writes, so the fsync that must come before the file is answered finds only the last bytes
 * left (a 4 MB package's fsync was most of a small publish's wait after its body, issue 23). Answers the bytes written
 * once every write is done and no datasync is in flight; the caller's fsync makes the file durable.
 */
export async function writeFlushingBehind(handle: FileHandle, body: Readable): Promise<number> {
  let position = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let flushing: Promise<void> | null = null;
  let flushFailure: unknown = null;
  const flushBehind = () => {
    flushing ??= handle.datasync().then(
      () => {
        flushing = null;
      },
      (error: unknown) => {
        flushFailure ??= error;
        flushing = null;
      },
    );
  };
  const write = async () => {
    if (batchBytes === 0) return;
    const buffers = batch;
    const length = batchBytes;
    batch = [];
    batchBytes = 0;
    await writeAllAt(handle, buffers, position);
    position += length;
    if (flushFailure) throw flushFailure;
    flushBehind();
  };
  try {
    for await (const chunk of body) {
      batch.push(chunk as Buffer);
      batchBytes += (chunk as Buffer).length;
      if (batchBytes >= BATCH_BYTES) await write();
    }
    await write();
  } finally {
    await flushing;
  }
  if (flushFailure) throw flushFailure;
  return position;
}

/** fsync of a file, or of a directory (so a rename in it survives a crash; skipped where unsupported). */
export async function syncPath(target: string, kind: 'file' | 'directory' = 'file'): Promise<void> {
  const handle = await fsp.open(target, 'r').catch((error: unknown) => {
    if (kind === 'directory') return null;
    throw error;
  });
  if (!handle) return;
  try {
    await handle.sync().catch((error: unknown) => {
      if (kind === 'file') throw error;
    });
  } finally {
    await handle.close();
  }
}
