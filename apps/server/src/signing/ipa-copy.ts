import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Entry } from 'yauzl';
import { createDigester, isBytes, type AppFiles } from './app-files.ts';
import {
  entryStream,
  inflated,
  IpaArchiveError,
  isDirectoryEntry,
  rawEntryStream,
  READ_CHUNK,
  type IpaArchive,
  type KnownEntry,
} from './ipa-archive.ts';
import { isStreamed, signedBytes, signedSize, type StreamedExecutable } from './streamed-macho.ts';
import { compressEntry, type CompressedEntry, type EntryPlace, type ZipEntryMeta, type ZipOut } from './zip-out.ts';

/**
 * Re-signing's writes: each resource's compressed bytes go to the output as they are, while resources are inflated
 * and hashed for the seal (two at a time, inflating in zlib's thread pool, hashing here: both cores).
 * After signing, only what changed is compressed again; a held file that did not change is copied as well.
 */
export function entryMeta(entry: Entry): ZipEntryMeta {
  return {
    name: entry.fileName,
    method: entry.compressionMethod,
    crc32: entry.crc32,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    dosTime: entry.lastModFileTime,
    dosDate: entry.lastModFileDate,
    externalAttributes: entry.externalFileAttributes,
  };
}

const corrupt = (entry: Entry) => new IpaArchiveError(`ipa 文件已损坏：${entry.fileName}`);

/** Copies one entry's stored bytes to `out` as they are (read through `scratch`). */
async function copyEntry(archive: IpaArchive, entry: Entry, out: ZipOut, scratch: Buffer): Promise<void> {
  await out.begin(entryMeta(entry));
  let copied = 0;
  for await (const chunk of rawEntryStream(archive, entry, scratch)) {
    copied += chunk.length;
    await out.dataOnce(chunk);
  }
  if (copied !== entry.compressedSize) throw corrupt(entry);
}

/**
 * Inflates one entry and takes its digests, and the CRC-32 of its stored bytes (the verifier checks the copy by
 * it). The inflated size and CRC-32 must be those the central directory declares. `onBytes` gets each inflated chunk's
 * length. The stored bytes are read through `scratch`.
 */
async function digestEntry(
  archive: IpaArchive,
  entry: Entry,
  onBytes: (bytes: number) => void,
  scratch: Buffer,
): Promise<KnownEntry> {
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw new IpaArchiveError(`不支持的压缩方式（${entry.compressionMethod}）：${entry.fileName}`);
  const digester = createDigester();
  let rawCrc = 0;
  let rawSize = 0;
  let size = 0;
  let crc = 0;
  const raw = (async function* () {
    for await (const chunk of rawEntryStream(archive, entry, scratch)) {
      rawCrc = crc32(chunk, rawCrc);
      rawSize += chunk.length;
      yield chunk;
    }
  })();
  for await (const chunk of entry.compressionMethod === 8 ? inflated(raw) : raw) {
    size += chunk.length;
    // Bounded by what the central directory declares: a lying entry stops here, not at the end.
    if (size > entry.uncompressedSize) throw corrupt(entry);
    crc = crc32(chunk, crc);
    digester.update(chunk);
    onBytes(chunk.length);
  }
  if (size !== entry.uncompressedSize || crc >>> 0 !== entry.crc32 >>> 0 || rawSize !== entry.compressedSize)
    throw corrupt(entry);
  return {
    digest: digester.digest(),
    rawCrc32: rawCrc >>> 0,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    crc32: entry.crc32,
  };
}

/** How many resources are inflated and hashed at once: each inflates on its own thread of zlib's pool. */
const DIGEST_LANES = 2;

/**
 * Writes every directory and every resource (whatever `held` does not hold) to `out`, copied compressed as it is,
 * and answers each resource's digests with what the verifier needs to know it was copied intact. The copy goes in
 * archive order while two resources at a time are inflated and hashed (both cores busy); it reads the stored bytes a
 * second time, from the page cache, and the verifier checks what was written against the CRC-32 of what was hashed.
 */
export async function copyResources(
  archive: IpaArchive,
  held: ReadonlyMap<string, unknown>,
  out: ZipOut,
  onBytes: (done: number) => void,
  /** Entries left out of the new ipa (removed bundles). */
  skip: (name: string) => boolean = () => false,
): Promise<Map<string, KnownEntry>> {
  const resources = archive.entries.filter(
    (entry) => !isDirectoryEntry(entry) && !held.has(entry.fileName) && !skip(entry.fileName),
  );
  const digests: KnownEntry[] = [];
  let done = 0;
  let next = 0;
  let stopped = false;
  const lane = async () => {
    const scratch = Buffer.allocUnsafeSlow(READ_CHUNK);
    while (!stopped && next < resources.length) {
      const at = next++;
      digests[at] = await digestEntry(
        archive,
        resources[at] as Entry,
        (bytes) => {
          done += bytes;
          onBytes(done);
        },
        scratch,
      );
    }
  };
  const digesting = Promise.all(Array.from({ length: DIGEST_LANES }, lane));
  digesting.catch(() => {
    stopped = true;
  });
  const scratch = Buffer.allocUnsafeSlow(READ_CHUNK);
  try {
    for (const entry of archive.entries) {
      if (skip(entry.fileName)) continue;
      if (isDirectoryEntry(entry)) await out.addDirectory(entryMeta(entry));
      else if (!held.has(entry.fileName)) await copyEntry(archive, entry, out, scratch);
    }
  } catch (error) {
    stopped = true;
    await digesting.catch(() => undefined);
    throw error;
  }
  await digesting;
  return new Map(resources.map((entry, at) => [entry.fileName, digests[at] as KnownEntry]));
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Today as an MS-DOS time and date, for the files the signer adds. */
function dosNow(): Pick<ZipEntryMeta, 'dosTime' | 'dosDate'> {
  const now = new Date();
  return {
    dosTime: (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1),
    dosDate: ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate(),
  };
}

/** Changed files from this size on are deflated while written (compressed pieces in flight only), not held whole. */
const DEFLATE_AS_WRITTEN = 8 * 1024 * 1024;

/**
 * Writes the held files after signing: changed ones compressed again (all started at once, so the thread pool
 * compresses several while the first is written), unchanged ones (`before` holds their SHA-256) copied, then the
 * files the signer added. `onBytes` reports the uncompressed bytes written.
 */
export async function writeHeld(
  archive: IpaArchive,
  files: AppFiles,
  before: ReadonlyMap<string, string>,
  out: ZipOut,
  onBytes: (done: number) => void,
): Promise<void> {
  const sourceNames = new Set(archive.entries.map((entry) => entry.fileName));
  const writes: Array<{
    entry: Entry | null;
    place: EntryPlace;
    compressed: Promise<CompressedEntry> | null;
    /** A large changed file (a signed executable), deflated as it is written instead of held compressed. */
    deflating?: Buffer;
    /** A signed streamed executable: its source streams again, patched, into the deflater. */
    streamed?: StreamedExecutable;
  }> = [];
  for (const entry of archive.entries) {
    const file = files.get(entry.fileName);
    if (isStreamed(file) && file.signed) {
      writes.push({ entry, place: entryMeta(entry), compressed: null, streamed: file });
      continue;
    }
    if (!before.has(entry.fileName) || !isBytes(file)) continue;
    const unchanged = before.get(entry.fileName) === sha256(file);
    if (!unchanged && file.length >= DEFLATE_AS_WRITTEN)
      writes.push({ entry, place: entryMeta(entry), compressed: null, deflating: file });
    else writes.push({ entry, place: entryMeta(entry), compressed: unchanged ? null : compressEntry(file) });
  }
  const added = { ...dosNow(), externalAttributes: (0o100644 << 16) >>> 0 };
  for (const [name, file] of files)
    if (!sourceNames.has(name) && isBytes(file))
      writes.push({ entry: null, place: { name, ...added }, compressed: compressEntry(file) });
  // A failed compression is reported once, by the write that awaits it.
  for (const write of writes) write.compressed?.catch(() => undefined);
  let done = 0;
  for (const { entry, place, compressed, deflating, streamed } of writes) {
    if (streamed && entry) {
      const source = entryStream(archive, entry);
      await out.addDeflating(place, { size: signedSize(streamed), chunks: signedBytes(streamed, source) });
      done += signedSize(streamed);
    } else if (deflating) {
      await out.addDeflating(place, deflating);
      done += deflating.length;
    } else if (compressed) {
      const result = await compressed;
      await out.addCompressed(place, result);
      done += result.meta.uncompressedSize;
    } else if (entry) {
      await copyEntry(archive, entry, out, Buffer.allocUnsafe(Math.min(READ_CHUNK, Math.max(1, entry.compressedSize))));
      done += entry.uncompressedSize;
    }
    onBytes(done);
  }
}
