import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { inspectionFailure, PackageInspectionError } from './inspection-error.ts';
import type { InspectionLimits } from './types.ts';
import { locateCentralDirectory, readAt, startsLikeZip, type CentralDirectoryLocation } from './zip-layout.ts';
import { CentralDirectoryCachingReader } from './zip-random-access.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const defaultLimits: InspectionLimits = {
  maxEntryBytes: 50 * MiB,
  maxTotalUncompressedBytes: 32 * GiB,
  maxCompressionRatio: 200,
  ratioFloorBytes: 64 * MiB,
  maxEntries: 1_000_000,
};

/** The central directory of games' IPAs runs to megabytes; one read, then served from memory. */
const MAX_CENTRAL_DIRECTORY_BYTES = 256 * MiB;
const LOCAL_HEADER_MIN = 30;

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  isDirectory: boolean;
  isEncrypted: boolean;
}

/** A random-access view over an archive: the central directory read once into a Map, entries read on demand. */
export interface ZipIndex {
  readonly fileSize: number;
  readonly centralDirectory: CentralDirectoryLocation;
  readonly entries: ReadonlyMap<string, ZipEntryInfo>;
  readonly totalUncompressedBytes: number;
  readEntry(name: string, maxBytes?: number): Promise<Buffer>;
  /** Raw bytes of the archive file itself (APK signing block lives between the data and the CD). */
  readRaw(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

function openZip(reader: yauzl.RandomAccessReader, size: number): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(
      reader,
      size,
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => (error || !zip ? reject(error ?? new Error('no zip')) : resolve(zip)),
    );
  });
}

function walkCentralDirectory(zip: yauzl.ZipFile, limits: InspectionLimits): Promise<Map<string, yauzl.Entry>> {
  const byName = new Map<string, yauzl.Entry>();
  return new Promise((resolve, reject) => {
    zip.on('error', (error: unknown) => reject(inspectionFailure('corrupt', undefined, error)));
    zip.on('end', () => resolve(byName));
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      if (yauzl.validateFileName(name) !== null || name.includes('\0')) {
        zip.close();
        reject(inspectionFailure('illegalPath', name.slice(0, 200)));
        return;
      }
      if (byName.size >= limits.maxEntries) {
        zip.close();
        reject(inspectionFailure('zipBomb', `文件数量超过 ${limits.maxEntries}`));
        return;
      }
      if (!byName.has(name)) byName.set(name, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/** Rejects archives that would explode when extracted: declared sizes, ratios and overlapping entries. */
function assertNotBomb(entries: Iterable<yauzl.Entry>, fileSize: number, cdOffset: number, limits: InspectionLimits): number {
  let total = 0;
  const byOffset: yauzl.Entry[] = [];
  for (const entry of entries) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize > limits.ratioFloorBytes && ratio > limits.maxCompressionRatio) {
      throw inspectionFailure('zipBomb');
    }
    byOffset.push(entry);
  }
  if (total > limits.maxTotalUncompressedBytes) throw inspectionFailure('zipBomb');
  if (total > limits.ratioFloorBytes && total / Math.max(1, fileSize) > limits.maxCompressionRatio) throw inspectionFailure('zipBomb');
  byOffset.sort((a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader);
  for (let i = 0; i < byOffset.length; i += 1) {
    const entry = byOffset[i] as yauzl.Entry;
    const end = entry.relativeOffsetOfLocalHeader + LOCAL_HEADER_MIN + entry.compressedSize;
    const next = byOffset[i + 1];
    // Overlapping entries are how non-recursive zip bombs multiply one compressed kernel.
    if (next && next.relativeOffsetOfLocalHeader < end) throw inspectionFailure('zipBomb');
    if (!next && end > cdOffset) throw inspectionFailure('corrupt');
  }
  return total;
}

async function collect(stream: Readable, maxBytes: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    length += bytes.length;
    if (length > maxBytes) {
      stream.destroy();
      throw inspectionFailure('entryTooLarge', name);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, length);
}

/** Opens `filePath` as a zip, checking it is not empty, cut short, hostile or a bomb. Close it when done. */
export async function openZipIndex(filePath: string, limits: InspectionLimits = defaultLimits): Promise<ZipIndex> {
  const handle = await open(filePath, 'r');
  let handedOver = false;
  try {
    const { size: fileSize } = await handle.stat();
    if (fileSize === 0) throw inspectionFailure('emptyFile');
    const head = await readAt(handle, 0, Math.min(4, fileSize));
    const location = await locateCentralDirectory(handle, fileSize);
    if (!location) throw inspectionFailure(startsLikeZip(head) ? 'corrupt' : 'notAPackage');
    if (location.offset + location.size > location.eocdOffset) throw inspectionFailure('corrupt');
    if (location.entryCount > limits.maxEntries) throw inspectionFailure('zipBomb', `文件数量超过 ${limits.maxEntries}`);
    if (location.size > MAX_CENTRAL_DIRECTORY_BYTES) throw inspectionFailure('zipBomb');
    const cd = await readAt(handle, location.offset, location.size);
    const reader = new CentralDirectoryCachingReader(handle, location.offset, cd);
    let zip: yauzl.ZipFile;
    try {
      zip = await openZip(reader, fileSize);
    } catch (error) {
      throw inspectionFailure('corrupt', undefined, error);
    }
    handedOver = true;
    const closed = new Promise<void>((resolve) => {
      reader.once('close', () => resolve());
      reader.once('error', () => resolve());
    });
    const close = async () => {
      if (zip.isOpen) zip.close();
      await closed;
    };
    try {
      const byName = await walkCentralDirectory(zip, limits);
      const totalUncompressedBytes = assertNotBomb(byName.values(), fileSize, location.offset, limits);
      return buildIndex({ zip, byName, fileSize, location, totalUncompressedBytes, limits, handle, close });
    } catch (error) {
      await close();
      throw error;
    }
  } finally {
    if (!handedOver) await handle.close();
  }
}

interface IndexParts {
  zip: yauzl.ZipFile;
  byName: Map<string, yauzl.Entry>;
  fileSize: number;
  location: CentralDirectoryLocation;
  totalUncompressedBytes: number;
  limits: InspectionLimits;
  handle: FileHandle;
  close: () => Promise<void>;
}

function buildIndex(parts: IndexParts): ZipIndex {
  const { zip, byName, limits, handle } = parts;
  const entries = new Map<string, ZipEntryInfo>();
  for (const [name, entry] of byName) {
    entries.set(name, {
      name,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
      isDirectory: name.endsWith('/'),
      isEncrypted: (entry.generalPurposeBitFlag & 0x1) !== 0,
    });
  }
  return {
    fileSize: parts.fileSize,
    centralDirectory: parts.location,
    entries,
    totalUncompressedBytes: parts.totalUncompressedBytes,
    async readEntry(name, maxBytes = limits.maxEntryBytes) {
      const entry = byName.get(name);
      if (!entry) throw new Error(`no entry ${name}`);
      if (entry.isEncrypted()) throw inspectionFailure('encrypted');
      if (entry.uncompressedSize > maxBytes) throw inspectionFailure('entryTooLarge', name);
      let bytes: Buffer;
      try {
        bytes = await collect(await zip.openReadStreamPromise(entry), maxBytes, name);
      } catch (error) {
        if (error instanceof PackageInspectionError) throw error;
        throw inspectionFailure('corrupt', undefined, error);
      }
      // yauzl checks sizes but not checksums; damaged metadata must not pass as data.
      if (crc32(bytes) >>> 0 !== entry.crc32 >>> 0) throw inspectionFailure('corrupt');
      return bytes;
    },
    readRaw: (position, length) => readAt(handle, position, length),
    close: parts.close,
  };
}

/** Files (not directories) in the archive. */
export function countFiles(zip: ZipIndex): number {
  let count = 0;
  for (const entry of zip.entries.values()) if (!entry.isDirectory) count += 1;
  return count;
}
