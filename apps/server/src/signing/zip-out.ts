import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw } from 'node:zlib';

/**
 * A streaming zip writer for re-signed ipas: entries whose bytes do not change go in as their compressed bytes,
 * unchanged (local header, then the source's data); new bytes are deflated off the main thread (zlib's thread
 * pool). Sizes and CRC-32 are known before each entry, so there are no data descriptors; ZIP64 records appear only
 * when an offset, a size or the entry count needs them. The central directory is written by `finish()`.
 */
export interface ZipEntryMeta {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** MS-DOS time and date as in the source's central directory. */
  dosTime: number;
  dosDate: number;
  /** Unix mode and type in the high 16 bits (as the source had them). */
  externalAttributes: number;
}

const deflateAsync = promisify(deflateRaw);
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const GATHER = 256 * 1024;
/** Version made by: Unix (3), spec 4.5. */
const MADE_BY = (3 << 8) | 45;

/** Where and how an entry sits, apart from its data. */
export type EntryPlace = Pick<ZipEntryMeta, 'name' | 'dosTime' | 'dosDate' | 'externalAttributes'>;

export interface CompressedEntry {
  meta: Pick<ZipEntryMeta, 'method' | 'crc32' | 'compressedSize' | 'uncompressedSize'>;
  body: Buffer[];
}

/** Pieces deflated separately (in parallel) and joined, as pigz does: each ends on a byte boundary (sync flush). */
const PIECE = 4 * 1024 * 1024;

/**
 * Deflates new bytes in zlib's thread pool, a large file in 4 MiB pieces at once so that both cores work on it; a
 * piece's back-references stay within it, which costs a fraction of a percent of size. Stored when deflating does
 * not make them smaller.
 */
export async function compressEntry(bytes: Buffer): Promise<CompressedEntry> {
  const pieces: Promise<Buffer>[] = [];
  for (let at = 0; at < bytes.length || at === 0; at += PIECE) {
    const last = at + PIECE >= bytes.length;
    pieces.push(
      deflateAsync(bytes.subarray(at, at + PIECE), { finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }),
    );
  }
  const body = await Promise.all(pieces);
  const compressedSize = body.reduce((sum, part) => sum + part.length, 0);
  const checksum = crc32(bytes) >>> 0;
  const stored = compressedSize >= bytes.length;
  return {
    meta: {
      method: stored ? 0 : 8,
      crc32: checksum,
      compressedSize: stored ? bytes.length : compressedSize,
      uncompressedSize: bytes.length,
    },
    body: stored ? [bytes] : body,
  };
}

interface Written extends ZipEntryMeta {
  offset: number;
  /** Written before its CRC-32 and sizes were known: its local header is filled in by `finish()`. */
  patch?: boolean;
}

/** How many pieces of a file deflated while it is written are in flight at once (zlib's pool has 4 threads). */
const PIECES_IN_FLIGHT = 4;
/** An entry this large or larger is written with ZIP64 sizes when deflated as it goes (its compressed size is unknown). */
const ZIP64_FROM = MAX32 - 64 * 1024 * 1024;

export class ZipOut {
  private readonly stream: fs.WriteStream;
  private readonly written: Written[] = [];
  private offset = 0;
  private failure: Error | null = null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while a write waits for the file to take more (a failure ends the wait too). */
  private drained: (() => void) | null = null;

  constructor(private readonly filePath: string) {
    this.stream = fs.createWriteStream(filePath);
    this.stream.on('error', (error) => {
      this.failure = error;
      this.drained?.();
    });
    this.stream.on('drain', () => this.drained?.());
  }

  /** Bytes written so far. */
  get size(): number {
    return this.offset;
  }

  /** Small writes (headers, small entries) are gathered and go to the file together. */
  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= GATHER) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunk = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    if (chunk && chunk.length > 0 && !this.stream.write(chunk)) {
      await new Promise<void>((resolve) => {
        this.drained = resolve;
      });
      this.drained = null;
    }
    if (this.failure) throw this.failure;
  }

  /** Starts an entry whose `compressedSize` bytes of data the caller then gives to `data()`. */
  async begin(meta: ZipEntryMeta): Promise<void> {
    const name = Buffer.from(meta.name, 'utf8');
    const zip64 = meta.compressedSize >= MAX32 || meta.uncompressedSize >= MAX32;
    const extra = zip64 ? zip64Extra([meta.uncompressedSize, meta.compressedSize]) : Buffer.alloc(0);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(zip64 ? 45 : 20, 4);
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(meta.method, 8);
    header.writeUInt16LE(meta.dosTime, 10);
    header.writeUInt16LE(meta.dosDate, 12);
    header.writeUInt32LE(meta.crc32 >>> 0, 14);
    header.writeUInt32LE(zip64 ? MAX32 : meta.compressedSize, 18);
    header.writeUInt32LE(zip64 ? MAX32 : meta.uncompressedSize, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(extra.length, 28);
    this.written.push({ ...meta, offset: this.offset });
    await this.write(Buffer.concat([header, name, extra]));
  }

  /** A chunk of the current entry's (compressed) data. */
  data(chunk: Buffer): Promise<void> {
    return this.write(chunk);
  }

  /**
   * A chunk whose memory the caller reuses once this resolves: a small one is gathered as a copy, a large one is
   * written to the file before this resolves.
   */
  async dataOnce(chunk: Buffer): Promise<void> {
    if (chunk.length < GATHER) return this.write(Buffer.from(chunk));
    await this.flush();
    this.offset += chunk.length;
    await new Promise<void>((resolve, reject) =>
      this.stream.write(chunk, (error) => (error ? reject(error) : resolve())),
    );
    if (this.failure) throw this.failure;
  }

  async addDirectory(meta: EntryPlace) {
    await this.begin({ ...meta, method: 0, crc32: 0, compressedSize: 0, uncompressedSize: 0 });
  }

  /** New bytes, compressed by `compressEntry` (started earlier, so several compress at once). */
  async addCompressed(meta: EntryPlace, compressed: CompressedEntry) {
    await this.begin({ ...meta, ...compressed.meta });
    for (const part of compressed.body) await this.write(part);
  }

  /**
   * New bytes deflated while they are written, PIECES_IN_FLIGHT pieces of 4 MiB at a time (as compressEntry cuts
   * them), so the compressed whole is never held: a large signed executable costs its own bytes only, or when it
   * comes as a stream of `size` bytes (a streamed executable), only the pieces in flight. Always deflated (a piece
   * that does not shrink grows by a few bytes); the local header's CRC-32 and sizes are filled in by `finish()`.
   */
  async addDeflating(
    place: EntryPlace,
    bytes: Buffer | { size: number; chunks: AsyncIterable<Buffer> },
  ): Promise<void> {
    const size = Buffer.isBuffer(bytes) ? bytes.length : bytes.size;
    const zip64 = size >= ZIP64_FROM;
    const meta: ZipEntryMeta = {
      ...place,
      method: 8,
      crc32: 0,
      compressedSize: zip64 ? MAX32 : 0,
      uncompressedSize: zip64 ? MAX32 : size,
    };
    await this.begin(meta);
    const entry = this.written.at(-1) as Written;
    const source = (Buffer.isBuffer(bytes) ? bufferPieces(bytes) : streamPieces(bytes.chunks))[Symbol.asyncIterator]();
    const pieces: Array<Promise<Buffer>> = [];
    let ended = false;
    let crc = 0;
    let seen = 0;
    const start = async () => {
      const next = await source.next();
      if (next.done) {
        ended = true;
        return;
      }
      crc = crc32(next.value, crc);
      seen += next.value.length;
      const last = seen >= size;
      const piece = deflateAsync(next.value, { finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH });
      piece.catch(() => undefined);
      pieces.push(piece);
    };
    while (!ended && pieces.length < PIECES_IN_FLIGHT) await start();
    let compressedSize = 0;
    for (let i = 0; i < pieces.length; i++) {
      const piece = await (pieces[i] as Promise<Buffer>);
      pieces[i] = Promise.resolve(Buffer.alloc(0));
      if (!ended) await start();
      compressedSize += piece.length;
      await this.write(piece);
    }
    if (seen !== size) throw new Error(`deflated ${seen} bytes of ${size}`);
    Object.assign(entry, { crc32: crc >>> 0, compressedSize, uncompressedSize: size, patch: true });
  }

  /** Writes the central directory and closes the file. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.written) {
      const name = Buffer.from(entry.name, 'utf8');
      const zip64 = entry.compressedSize >= MAX32 || entry.uncompressedSize >= MAX32 || entry.offset >= MAX32;
      const extra = zip64 ? zip64Extra([entry.uncompressedSize, entry.compressedSize, entry.offset]) : Buffer.alloc(0);
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(MADE_BY, 4);
      record.writeUInt16LE(zip64 ? 45 : 20, 6);
      record.writeUInt16LE(0x0800, 8);
      record.writeUInt16LE(entry.method, 10);
      record.writeUInt16LE(entry.dosTime, 12);
      record.writeUInt16LE(entry.dosDate, 14);
      record.writeUInt32LE(entry.crc32 >>> 0, 16);
      record.writeUInt32LE(zip64 ? MAX32 : entry.compressedSize, 20);
      record.writeUInt32LE(zip64 ? MAX32 : entry.uncompressedSize, 24);
      record.writeUInt16LE(name.length, 28);
      record.writeUInt16LE(extra.length, 30);
      record.writeUInt32LE(entry.externalAttributes >>> 0, 38);
      record.writeUInt32LE(zip64 ? MAX32 : entry.offset, 42);
      await this.write(Buffer.concat([record, name, extra]));
    }
    const size = this.offset - start;
    const count = this.written.length;
    if (count >= MAX16 || size >= MAX32 || start >= MAX32) {
      const end64 = Buffer.alloc(56);
      end64.writeUInt32LE(0x06064b50, 0);
      end64.writeBigUInt64LE(44n, 4);
      end64.writeUInt16LE(MADE_BY, 12);
      end64.writeUInt16LE(45, 14);
      end64.writeBigUInt64LE(BigInt(count), 24);
      end64.writeBigUInt64LE(BigInt(count), 32);
      end64.writeBigUInt64LE(BigInt(size), 40);
      end64.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(this.offset), 8);
      locator.writeUInt32LE(1, 16);
      await this.write(Buffer.concat([end64, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, MAX16), 8);
    end.writeUInt16LE(Math.min(count, MAX16), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    await this.write(end);
    await this.flush();
    this.stream.end();
    await Promise.race([
      once(this.stream, 'close'),
      once(this.stream, 'error').then(([error]) => Promise.reject(error)),
    ]);
    await this.patchLocalHeaders();
  }

  /** Fills in the CRC-32 and sizes of entries written by `addDeflating` (in the header, or its ZIP64 field). */
  private async patchLocalHeaders(): Promise<void> {
    const patched = this.written.filter((entry) => entry.patch);
    if (patched.length === 0) return;
    const file = await fsp.open(this.filePath, 'r+');
    try {
      for (const entry of patched) {
        const crc = Buffer.alloc(4);
        crc.writeUInt32LE(entry.crc32 >>> 0, 0);
        await file.write(crc, 0, 4, entry.offset + 14);
        const sizes = Buffer.alloc(16);
        if (entry.uncompressedSize >= ZIP64_FROM) {
          sizes.writeBigUInt64LE(BigInt(entry.uncompressedSize), 0);
          sizes.writeBigUInt64LE(BigInt(entry.compressedSize), 8);
          await file.write(sizes, 0, 16, entry.offset + 30 + Buffer.byteLength(entry.name, 'utf8') + 4);
        } else {
          sizes.writeUInt32LE(entry.compressedSize, 0);
          sizes.writeUInt32LE(entry.uncompressedSize, 4);
          await file.write(sizes, 0, 8, entry.offset + 18);
        }
      }
    } finally {
      await file.close();
    }
  }

  /** Closes the file after a failure (what was written is not a usable archive). */
  abort(): void {
    this.stream.destroy();
  }
}

/** A buffer as pieces of PIECE bytes (views, no copy); one empty piece for an empty buffer. */
async function* bufferPieces(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length || at === 0; at += PIECE) yield bytes.subarray(at, at + PIECE);
}

/** A stream's chunks gathered into pieces of PIECE bytes (the last shorter). */
async function* streamPieces(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of chunks) {
    let rest = chunk;
    while (heldBytes + rest.length >= PIECE) {
      const take = PIECE - heldBytes;
      held.push(rest.subarray(0, take));
      yield Buffer.concat(held, PIECE);
      rest = rest.subarray(take);
      held = [];
      heldBytes = 0;
    }
    if (rest.length > 0) {
      held.push(rest);
      heldBytes += rest.length;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
}

function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  for (const [index, value] of values.entries()) extra.writeBigUInt64LE(BigInt(value), 4 + 8 * index);
  return extra;
}
