import { randomFillSync } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';
import type { ZipEntrySpec } from '@release/inspect/testing/zip-writer.ts';

/**
 * A streaming zip writer for the benchmarks: small entries from memory (as the test writer does) and
 * STORED entries of random bytes written chunk by chunk, so a 2 GiB package never sits in memory.
 * Plain zip32: fewer than 65,536 entries and less than 4 GiB in all.
 */
export type BenchZipEntry = ZipEntrySpec | { name: string; randomBytes: number };

const CHUNK = 4 * 1024 * 1024;
const FLUSH_AT = 1024 * 1024;
const ZIP32_LIMIT = 0xffffffff;

function header(fields: Array<[number, 2 | 4]>): Buffer {
  const buffer = Buffer.alloc(fields.reduce((sum, [, size]) => sum + size, 0));
  let at = 0;
  for (const [value, size] of fields) {
    if (size === 2) buffer.writeUInt16LE(value, at);
    else buffer.writeUInt32LE(value >>> 0, at);
    at += size;
  }
  return buffer;
}

interface EntryRecord {
  name: Buffer;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** The fields shared by the local header and the central record, from "version needed" to "extra length". */
function common(r: EntryRecord): Buffer {
  return header([
    [20, 2],
    [0x0800, 2],
    [r.method, 2],
    [0, 2],
    [0x21, 2],
    [r.crc, 4],
    [r.compressed, 4],
    [r.size, 4],
    [r.name.length, 2],
    [0, 2],
  ]);
}

class Output {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  position = 0;

  constructor(private readonly handle: FileHandle) {}

  async append(bytes: Buffer): Promise<void> {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.position += bytes.length;
    if (this.pendingBytes >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const batch = Buffer.concat(this.pending, this.pendingBytes);
    const at = this.position - this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    await this.writeAt(batch, at);
  }

  async writeAt(bytes: Buffer, position: number): Promise<void> {
    let done = 0;
    while (done < bytes.length)
      done += (await this.handle.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
  }
}

async function writeRandomEntry(out: Output, name: Buffer, size: number): Promise<EntryRecord> {
  const record: EntryRecord = { name, method: 0, crc: 0, compressed: size, size, offset: out.position };
  const local = Buffer.concat([header([[0x04034b50, 4]]), common(record), name]);
  await out.append(local);
  await out.flush();
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, size)));
  let crc = 0;
  for (let written = 0; written < size; ) {
    const piece = chunk.subarray(0, Math.min(chunk.length, size - written));
    randomFillSync(piece);
    crc = crc32(piece, crc);
    await out.writeAt(piece, out.position);
    out.position += piece.length;
    written += piece.length;
  }
  record.crc = crc >>> 0;
  // The CRC is known only now: patch it into the local header (offset 14).
  await out.writeAt(header([[record.crc, 4]]), record.offset + 14);
  return record;
}

async function writeMemoryEntry(out: Output, entry: ZipEntrySpec): Promise<EntryRecord> {
  const name = Buffer.from(entry.name, 'utf8');
  const raw = typeof entry.data === 'string' ? Buffer.from(entry.data) : (entry.data ?? Buffer.alloc(0));
  const method = entry.method ?? (raw.length > 64 ? 'deflate' : 'store');
  const body = method === 'deflate' ? deflateRawSync(raw) : raw;
  const record: EntryRecord = {
    name,
    method: method === 'deflate' ? 8 : 0,
    crc: crc32(raw) >>> 0,
    compressed: body.length,
    size: raw.length,
    offset: out.position,
  };
  await out.append(Buffer.concat([header([[0x04034b50, 4]]), common(record), name]));
  await out.append(body);
  return record;
}

/** Writes `entries` in order to `filePath`; answers the archive's size in bytes. */
export async function writeZip(
  filePath: string,
  entries: BenchZipEntry[],
  options: { beforeCentralDirectory?: Buffer } = {},
): Promise<number> {
  if (entries.length > 0xffff) throw new Error(`zip32 holds at most 65,535 entries, not ${entries.length}`);
  const handle = await open(filePath, 'w');
  try {
    const out = new Output(handle);
    const records: EntryRecord[] = [];
    for (const entry of entries) {
      records.push(
        'randomBytes' in entry
          ? await writeRandomEntry(out, Buffer.from(entry.name, 'utf8'), entry.randomBytes)
          : await writeMemoryEntry(out, entry),
      );
    }
    if (options.beforeCentralDirectory) await out.append(options.beforeCentralDirectory);
    const cdOffset = out.position;
    for (const r of records) {
      await out.append(
        Buffer.concat([
          header([
            [0x02014b50, 4],
            [0x031e, 2],
          ]),
          common(r),
          header([
            [0, 2],
            [0, 2],
            [0, 2],
            [0, 4],
            [r.offset, 4],
          ]),
          r.name,
        ]),
      );
    }
    const cdSize = out.position - cdOffset;
    if (out.position > ZIP32_LIMIT) throw new Error('archive is larger than zip32 allows');
    await out.append(
      header([
        [0x06054b50, 4],
        [0, 2],
        [0, 2],
        [records.length, 2],
        [records.length, 2],
        [cdSize, 4],
        [cdOffset, 4],
        [0, 2],
      ]),
    );
    await out.flush();
    return out.position;
  } finally {
    await handle.close();
  }
}
