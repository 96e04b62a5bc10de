import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { crc32, inflateRaw, inflateRawSync, type ZlibOptions } from 'node:zlib';
import { inspectionFailure, PackageInspectionError } from './inspection-error.ts';
import type { InspectionLimits } from './types.ts';
import { assertNotBomb, corrupt, parseCentralDirectory } from './zip-central-directory.ts';
import type { EntryLocation, EntryTable, ZipEntries } from './zip-entries.ts';
import { locateCentralDirectory, readAt, startsLikeZip, type CentralDirectoryLocation } from './zip-layout.ts';

export type { ZipEntries, ZipEntryInfo } from './zip-entries.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const defaultLimits: InspectionLimits = {
  maxEntryBytes: 50 * MiB,
  maxTotalUncompressedBytes: 32 * GiB,
  maxCompressionRatio: 200,
  ratioFloorBytes: 64 * MiB,
  maxEntries: 1_000_000,
};

/** The central directory of games' IPAs runs to megabytes; one read, parsed from memory. */
const MAX_CENTRAL_DIRECTORY_BYTES = 256 * MiB;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const LOCAL_HEADER_SIZE = 30;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
/** Smaller entries (plists, icons, profiles) inflate at once; larger ones (resources.arsc) off the event loop. */
const SYNC_INFLATE_MAX = 256 * 1024;

const inflateRawAsync = promisify<Buffer, ZlibOptions, Buffer>(inflateRaw);

/** A random-access view over an archive: the central directory read once into an index, entries read on demand. */
export interface ZipIndex {
  readonly fileSize: number;
  readonly centralDirectory: CentralDirectoryLocation;
  readonly entries: ZipEntries;
  readonly totalUncompressedBytes: number;
  readEntry(name: string, maxBytes?: number): Promise<Buffer>;
  /** Raw bytes of the archive file itself (APK signing block lives between the data and the CD). */
  readRaw(position: number, length: number): Promise<Buffer>;
  /** Where an entry's local header is, its method and sizes (to serve a stored entry as a byte range). */
  locate(name: string): EntryLocation | undefined;
  close(): Promise<void>;
}

/** Opens `filePath` as a zip, checking it is not empty, cut short, hostile or a bomb. Close it when done. */
export async function openZipIndex(filePath: string, limits: InspectionLimits = defaultLimits): Promise<ZipIndex> {
  const handle = await open(filePath, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    if (fileSize === 0) throw inspectionFailure('emptyFile');
    const head = await readAt(handle, 0, Math.min(4, fileSize));
    const location = await locateCentralDirectory(handle, fileSize);
    if (!location) throw inspectionFailure(startsLikeZip(head) ? 'corrupt' : 'notAPackage');
    if (location.offset + location.size > location.eocdOffset) throw inspectionFailure('corrupt');
    if (location.diskNumber !== 0) throw corrupt('multi-disk zip files are not supported');
    if (location.entryCount > limits.maxEntries)
      throw inspectionFailure('zipBomb', `文件数量超过 ${limits.maxEntries}`);
    if (location.size > MAX_CENTRAL_DIRECTORY_BYTES) throw inspectionFailure('zipBomb');
    const entries = parseCentralDirectory(
      await readAt(handle, location.offset, location.size),
      location.entryCount,
      limits,
    );
    const totalUncompressedBytes = assertNotBomb(entries, fileSize, location.offset, limits);
    return indexOver(handle, { fileSize, location, entries, totalUncompressedBytes, limits });
  } catch (error) {
    await handle.close();
    throw error;
  }
}

interface IndexParts {
  fileSize: number;
  location: CentralDirectoryLocation;
  entries: EntryTable;
  totalUncompressedBytes: number;
  limits: InspectionLimits;
}

/**
 * The most a deflate stream of `size` bytes can take (stored blocks: 5 bytes per 64 KiB), with room to spare.
 * A larger declared compressed size is not read whole: 50 KiB of plist must not cost gigabytes of memory.
 */
function deflateBound(size: number): number {
  return size + (size >>> 10) + 1024;
}

/** The entry's data as stored (for deflate, at most what its declared size can need): local header and bounds checked. */
async function readStoredBytes(handle: FileHandle, fileSize: number, entry: EntryLocation): Promise<Buffer> {
  const header = await readAt(handle, entry.localHeaderOffset, LOCAL_HEADER_SIZE);
  if (header.length < LOCAL_HEADER_SIZE || header.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE)
    throw corrupt('invalid local file header signature');
  const dataStart = entry.localHeaderOffset + LOCAL_HEADER_SIZE + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (dataStart + entry.compressedSize > fileSize) throw corrupt('file data overflows file bounds');
  const length =
    entry.method === METHOD_DEFLATE
      ? Math.min(entry.compressedSize, deflateBound(entry.uncompressedSize))
      : entry.compressedSize;
  const data = await readAt(handle, dataStart, length);
  if (data.length < length) throw corrupt('unexpected end of file');
  return data;
}

/** Inflates at most the declared size: more (or less) is damage, not data. */
async function inflateEntry(data: Buffer, entry: EntryLocation): Promise<Buffer> {
  const options = { maxOutputLength: Math.max(1, entry.uncompressedSize) };
  let bytes: Buffer;
  try {
    bytes = data.length <= SYNC_INFLATE_MAX ? inflateRawSync(data, options) : await inflateRawAsync(data, options);
  } catch (error) {
    throw inspectionFailure('corrupt', undefined, error);
  }
  if (bytes.length !== entry.uncompressedSize) throw corrupt('inflated size differs from the declared size');
  return bytes;
}

function indexOver(handle: FileHandle, parts: IndexParts): ZipIndex {
  const { fileSize, entries, limits } = parts;
  let closing: Promise<void> | null = null;
  return {
    fileSize,
    centralDirectory: parts.location,
    entries,
    totalUncompressedBytes: parts.totalUncompressedBytes,
    async readEntry(name, maxBytes = limits.maxEntryBytes) {
      const entry = entries.locate(name);
      if (!entry) throw new Error(`no entry ${name}`);
      if (entry.isEncrypted) throw inspectionFailure('encrypted');
      if (entry.uncompressedSize > maxBytes) throw inspectionFailure('entryTooLarge', name);
      if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATE)
        throw corrupt(`unsupported compression method ${entry.method}`);
      let bytes: Buffer;
      try {
        const data = await readStoredBytes(handle, fileSize, entry);
        bytes = entry.method === METHOD_STORED ? data : await inflateEntry(data, entry);
      } catch (error) {
        if (error instanceof PackageInspectionError) throw error;
        throw inspectionFailure('corrupt', undefined, error);
      }
      // Damaged metadata must not pass as data.
      if (crc32(bytes) >>> 0 !== entry.crc32) throw inspectionFailure('corrupt');
      return bytes;
    },
    readRaw: (position, length) => readAt(handle, position, length),
    locate: (name) => entries.locate(name),
    close() {
      closing ??= handle.close();
      return closing;
    },
  };
}

/** Files (not directories) in the archive. */
export function countFiles(zip: ZipIndex): number {
  let count = 0;
  for (const entry of zip.entries.values()) if (!entry.isDirectory) count += 1;
  return count;
}
