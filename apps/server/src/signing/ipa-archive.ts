import type { FileHandle } from 'node:fs/promises';
import fsp from 'node:fs/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { parsePlistDict, plistString } from '@release/inspect/plist.ts';
import { allocWithRoom, createDigester, type AppFiles, type FileDigest } from './app-files.ts';
import { bundlesOf, mainAppRoot } from './bundle-signer.ts';
import { readStreamed, STREAM_FROM, type CodeLimitOf } from './streamed-macho.ts';

/**
 * Reading an ipa for the signer without holding it whole: the central directory is read once (yauzl, names
 * checked against zip-slip), then only what signing needs is loaded (every Info.plist, the bundles' executables,
 * loose dylibs, profiles, seals; sizes and CRC-32 checked while streaming); every other file streams past and is
 * kept as its digests.
 */
export interface IpaArchive {
  zip: ZipFile;
  /** Entries in archive order (the first of duplicate names only). */
  entries: Entry[];
  /** The file, for reading entries' data (see rawEntryStream). */
  handle: FileHandle;
  size: number;
  close(): void;
}

export class IpaArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IpaArchiveError';
  }
}

export async function openIpa(filePath: string): Promise<IpaArchive> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(
      filePath,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (error, opened) =>
        error ? reject(new IpaArchiveError(`不是有效的 ipa 文件：${error.message}`)) : resolve(opened),
    ),
  );
  const entries: Entry[] = [];
  const seen = new Set<string>();
  let handle: FileHandle | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        if (!seen.has(entry.fileName)) {
          seen.add(entry.fileName);
          entries.push(entry);
        }
        zip.readEntry();
      });
      zip.once('end', resolve);
      zip.once('error', (error: Error) => reject(new IpaArchiveError(`ipa 文件已损坏：${error.message}`)));
      zip.readEntry();
    });
    handle = await fsp.open(filePath, 'r');
    const { size } = await handle.stat();
    const opened = handle;
    return {
      zip,
      entries,
      handle,
      size,
      close: () => {
        zip.close();
        opened.close().catch(() => undefined);
      },
    };
  } catch (error) {
    zip.close();
    await handle?.close();
    throw error;
  }
}

const corrupt = (entry: Entry) => new IpaArchiveError(`ipa 文件已损坏：${entry.fileName}`);

/**
 * Stored bytes are read this much at a time, into a buffer the reader reuses where it can (`scratch`): yauzl read
 * 64 KiB at a time into a new zero-filled buffer from malloc's heap, ~20,000 of them per job, which left the heap
 * fragmented (the server's RSS stayed ~40 MiB higher after each re-signing); new 1 MiB buffers instead (mappings of
 * their own) were garbage that V8 collects only after tens of MiB of them (the job's peak grew by as much).
 */
export const READ_CHUNK = 1024 * 1024;
/** Inflated chunks: larger than zlib's 16 KiB (fewer callbacks and hash updates). */
export const INFLATE_CHUNK = 256 * 1024;

/**
 * An entry's data exactly as stored (compressed or not), read from its local header's end. With `scratch`, every
 * chunk is a view of it: the consumer is done with a chunk when it asks for the next.
 */
export async function* rawEntryStream(
  archive: IpaArchive,
  entry: Entry,
  scratch: Buffer | null = null,
): AsyncGenerator<Buffer> {
  if (entry.isEncrypted()) throw new IpaArchiveError(`不支持加密的 ipa：${entry.fileName}`);
  const header = Buffer.alloc(30);
  const offset = entry.relativeOffsetOfLocalHeader;
  const { bytesRead } = await archive.handle.read(header, 0, 30, offset);
  if (bytesRead !== 30 || header.readUInt32LE(0) !== 0x04034b50) throw corrupt(entry);
  let at = offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const end = at + entry.compressedSize;
  if (end > archive.size) throw corrupt(entry);
  while (at < end) {
    const length = Math.min(scratch?.length ?? READ_CHUNK, end - at);
    const chunk = scratch ? scratch.subarray(0, length) : Buffer.allocUnsafe(length);
    if ((await archive.handle.read(chunk, 0, length, at)).bytesRead !== length) throw corrupt(entry);
    at += length;
    yield chunk;
  }
}

/**
 * Inflates raw chunks, each written to the inflater and taken in whole before the next is asked for (so a reused
 * scratch buffer is never overwritten while zlib reads it); answers the inflated chunks (new buffers).
 */
export async function* inflated(raw: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const inflate = createInflateRaw({ chunkSize: INFLATE_CHUNK });
  const feeding = (async () => {
    for await (const chunk of raw)
      await new Promise<void>((resolve, reject) =>
        inflate.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
    inflate.end();
  })();
  // A failed read ends the inflated stream with its error.
  feeding.catch((error: unknown) => inflate.destroy(error as Error));
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) yield chunk;
    await feeding;
  } finally {
    inflate.destroy();
    await feeding.catch(() => undefined);
  }
}

/** An entry's bytes as they were before compression; a size or CRC-32 other than the central directory's is refused. */
export async function* entryStream(archive: IpaArchive, entry: Entry): AsyncGenerator<Buffer> {
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw new IpaArchiveError(`不支持的压缩方式（${entry.compressionMethod}）：${entry.fileName}`);
  let size = 0;
  let crc = 0;
  // Stored bytes go to the caller as read (new buffers: a caller may keep them); compressed ones through one scratch.
  const chunks =
    entry.compressionMethod === 8
      ? inflated(
          rawEntryStream(
            archive,
            entry,
            Buffer.allocUnsafeSlow(Math.max(1, Math.min(READ_CHUNK, entry.compressedSize))),
          ),
        )
      : rawEntryStream(archive, entry);
  for await (const chunk of chunks) {
    size += chunk.length;
    // Bounded by what the central directory declares: a lying entry stops here, not at the end.
    if (size > entry.uncompressedSize) throw corrupt(entry);
    crc = crc32(chunk, crc);
    yield chunk;
  }
  if (size !== entry.uncompressedSize || crc >>> 0 !== entry.crc32 >>> 0) throw corrupt(entry);
}

/**
 * An entry's bytes, inflated into one buffer of the declared size; with `room`, followed by room for the signer to
 * sign it where it is.
 */
async function readWhole(archive: IpaArchive, entry: Entry, room = false): Promise<Buffer> {
  const bytes = room ? allocWithRoom(entry.uncompressedSize) : Buffer.allocUnsafe(entry.uncompressedSize);
  let at = 0;
  for await (const chunk of entryStream(archive, entry)) {
    chunk.copy(bytes, at);
    at += chunk.length;
  }
  return bytes;
}

const isDirectory = (entry: Entry) => entry.fileName.endsWith('/');
const isSymlink = (entry: Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

/** Names that are always loaded as bytes: plists the bundles are found by, dylibs to sign, profiles and seals. */
const ALWAYS_BYTES = /(\/Info\.plist|\.dylib|\/embedded\.mobileprovision|\/_CodeSignature\/CodeResources)$/;

/** Refuses links inside the app (a signed app has none that the seal could follow). */
function checkEntries(entries: Entry[]): void {
  for (const entry of entries) {
    if (isDirectory(entry)) continue;
    if (isSymlink(entry) && entry.fileName.startsWith('Payload/'))
      throw new IpaArchiveError(`不支持包含符号链接的 ipa：${entry.fileName}`);
  }
}

/**
 * The files the signer reads as bytes: every Info.plist, loose dylib, profile and seal, then the bundles'
 * executables named by those Info.plists. Everything else is a resource, needed only as its digests.
 */
export async function loadHeldFiles(
  archive: IpaArchive,
  /** Given: a bundle's executable, when large and thin, is streamed (hashed up to this limit), not held. */
  streamTo: CodeLimitOf | null = null,
  /** Streamed nested executables also get their whole digests (to verify the seal of the bundle around them). */
  digestNested = false,
): Promise<AppFiles> {
  const { entries } = archive;
  checkEntries(entries);
  const files: AppFiles = new Map();
  // Info.plists first: they name the executables that must be loaded too.
  const plists = entries.filter(
    (entry) => !isDirectory(entry) && ALWAYS_BYTES.test(entry.fileName) && entry.fileName.startsWith('Payload/'),
  );
  for (const entry of plists)
    files.set(entry.fileName, await readWhole(archive, entry, entry.fileName.endsWith('.dylib')));
  const root = mainAppRoot(files);
  const executables = new Set<string>();
  let mainExecutable: string | null = null;
  if (root) {
    for (const bundle of bundlesOf(files, root)) {
      const info = files.get(`${bundle}Info.plist`);
      const dict = Buffer.isBuffer(info) ? parsePlistDict(info) : null;
      const executable = dict ? plistString(dict, 'CFBundleExecutable') : null;
      if (executable) executables.add(`${bundle}${executable}`);
      if (executable && bundle === root) mainExecutable = `${bundle}${executable}`;
    }
  }
  for (const entry of entries) {
    if (!executables.has(entry.fileName) || isDirectory(entry)) continue;
    // A nested bundle's executable is a file of its parent's seal: when streamed, its whole digests are taken too
    // (the re-signer takes those of the signed bytes after signing it).
    const nested = entry.fileName !== mainExecutable;
    const streamed =
      streamTo && entry.uncompressedSize >= STREAM_FROM
        ? await readStreamed(entryStream(archive, entry), entry.uncompressedSize, streamTo, nested && digestNested)
        : null;
    files.set(entry.fileName, streamed ?? (await readWhole(archive, entry, true)));
  }
  return files;
}

/**
 * Loads an ipa's files for signing or verifying: bytes for what the signer reads, digests for the rest.
 * `onBytes` reports the uncompressed bytes seen so far (for progress). `known` are entries whose digests were
 * taken before (re-signing copied them compressed as they were): their compressed bytes are only checked to be
 * those same bytes (CRC-32 of the raw data and the sizes), not inflated and hashed again.
 */
export async function loadAppFiles(
  archive: IpaArchive,
  onBytes: (done: number) => void = () => undefined,
  known: ReadonlyMap<string, KnownEntry> = new Map(),
  streamTo: CodeLimitOf | null = null,
): Promise<AppFiles> {
  const { entries } = archive;
  const files = await loadHeldFiles(archive, streamTo, true);
  const scratch = Buffer.allocUnsafeSlow(READ_CHUNK);
  let done = 0;
  for (const entry of entries) {
    if (isDirectory(entry)) continue;
    const seen = known.get(entry.fileName);
    if (files.has(entry.fileName)) {
      done += entry.uncompressedSize;
    } else if (seen) {
      files.set(entry.fileName, await checkKnown(archive, entry, seen, scratch));
      done += entry.uncompressedSize;
    } else {
      const digester = createDigester();
      for await (const chunk of entryStream(archive, entry)) {
        digester.update(chunk);
        done += chunk.length;
        onBytes(done);
      }
      files.set(entry.fileName, digester.digest());
    }
    onBytes(done);
  }
  return files;
}

/** An entry copied compressed as it was: its digests, and the CRC-32 of its compressed bytes. */
export interface KnownEntry {
  digest: FileDigest;
  rawCrc32: number;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
}

async function checkKnown(archive: IpaArchive, entry: Entry, known: KnownEntry, scratch: Buffer): Promise<FileDigest> {
  let rawCrc = 0;
  for await (const chunk of rawEntryStream(archive, entry, scratch)) rawCrc = crc32(chunk, rawCrc);
  const same =
    rawCrc >>> 0 === known.rawCrc32 >>> 0 &&
    entry.compressedSize === known.compressedSize &&
    entry.uncompressedSize === known.uncompressedSize &&
    entry.crc32 >>> 0 === known.crc32 >>> 0;
  if (!same) throw corrupt(entry);
  return known.digest;
}

export const totalBytes = (archive: IpaArchive) =>
  archive.entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
export { isDirectory as isDirectoryEntry, readWhole as readEntry };
