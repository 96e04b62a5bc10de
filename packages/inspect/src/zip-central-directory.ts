import yauzl from 'yauzl';
import { inspectionFailure, type PackageInspectionError } from './inspection-error.ts';
import type { InspectionLimits } from './types.ts';
import { EntryTable } from './zip-entries.ts';

/**
 * The central directory, parsed from the one buffer it was read into by a tight synchronous loop: per entry
 * only what the inspectors and the reader need (a game's ipa holds 50,000 entries; yauzl's walk allocates
 * two buffers, an Entry and a tick per entry). Checks what yauzl checks while walking, plus paths and limits.
 */

const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const CENTRAL_HEADER_SIZE = 46;
const LOCAL_HEADER_MIN = 30;
const ZIP64_EXTRA = 0x0001;
const UNICODE_PATH_EXTRA = 0x7075;
const UINT32_MAX = 0xffffffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_UTF8 = 0x0800;
/** Traditional PKWARE encryption prefixes the data with a 12-byte header. */
const ENCRYPTION_HEADER = 12;
const NON_ASCII = /[^\x00-\x7f]/;
const DRIVE_LETTER = /^[a-zA-Z]:/;
/** Read as Latin-1, a plain ASCII name that is safe as it stands does not match this. */
const NEEDS_CARE = /[\0\\\x80-\xff]|^\/|^[a-zA-Z]:|\.\./;

export function corrupt(why: string): PackageInspectionError {
  return inspectionFailure('corrupt', undefined, new Error(why));
}

/** Little-endian reads without Buffer's argument checks: the loop checks its bounds once per record. */
function u16(bytes: Buffer, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
}

function u32(bytes: Buffer, at: number): number {
  return (
    ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16)) +
    (bytes[at + 3] as number) * 0x1000000
  );
}

/** A 64-bit field of the zip64 extended information extra field ending at `end`. */
function zip64Value(cd: Buffer, at: number, end: number): number {
  if (at + 8 > end) throw corrupt('zip64 extended information extra field is too short');
  return u32(cd, at) + u32(cd, at + 4) * 0x100000000;
}

/** `../x`, `a/../../x`, `/etc/x`, `C:/x` or a NUL: refused as yauzl's validateFileName does (backslashes are already `/`). */
function isIllegalPath(name: string): boolean {
  return (
    name.includes('\0') ||
    name.charCodeAt(0) === 0x2f ||
    DRIVE_LETTER.test(name) ||
    (name.includes('..') && name.split('/').includes('..'))
  );
}

function extraFieldsOf(cd: Buffer, start: number, end: number): yauzl.ExtraField[] {
  const fields: yauzl.ExtraField[] = [];
  for (let at = start; at < end - 3; ) {
    const dataEnd = at + 4 + cd.readUInt16LE(at + 2);
    fields.push({ id: cd.readUInt16LE(at), data: cd.subarray(at + 4, dataEnd) });
    at = dataEnd;
  }
  return fields;
}

/**
 * The exact name, as yauzl decodes it (UTF-8 flag, CP437, Info-ZIP Unicode path, backslashes as `/`), for the
 * few names that are not plain safe ASCII.
 */
function decodeName(
  cd: Buffer,
  start: number,
  end: number,
  flags: number,
  extraStart: number,
  extraEnd: number,
  unicodePath: boolean,
): string {
  const name = cd.toString('utf8', start, end);
  if (unicodePath || ((flags & FLAG_UTF8) === 0 && NON_ASCII.test(name))) {
    return yauzl.getFileNameLowLevel(flags, cd.subarray(start, end), extraFieldsOf(cd, extraStart, extraEnd), false);
  }
  return name.includes('\\') ? name.replaceAll('\\', '/') : name;
}

/**
 * Every entry of the central directory by name (the first of duplicates wins). Throws PackageInspectionError:
 * `corrupt` for a damaged directory, `illegalPath` for a path leaving the extraction folder, `zipBomb` above
 * `limits.maxEntries`.
 */
export function parseCentralDirectory(cd: Buffer, entryCount: number, limits: InspectionLimits): EntryTable {
  // A record takes at least 46 bytes: a directory that claims more entries than fit is cut short.
  if (entryCount * CENTRAL_HEADER_SIZE > cd.length) throw corrupt('central directory cut short');
  const entries = new EntryTable(entryCount);
  // One Latin-1 string of the whole directory: plain names are slices of it (no copy, little for the GC).
  const text = cd.toString('latin1');
  let at = 0;
  for (let index = 0; index < entryCount; index += 1) {
    if (at + CENTRAL_HEADER_SIZE > cd.length) throw corrupt('central directory cut short');
    if (u32(cd, at) !== CENTRAL_HEADER_SIGNATURE) throw corrupt('invalid central directory file header signature');
    const flags = u16(cd, at + 8);
    if (flags & FLAG_STRONG_ENCRYPTION) throw corrupt('strong encryption is not supported');
    const method = u16(cd, at + 10);
    const crc32 = u32(cd, at + 16);
    let compressedSize = u32(cd, at + 20);
    let uncompressedSize = u32(cd, at + 24);
    let localHeaderOffset = u32(cd, at + 42);
    const nameStart = at + CENTRAL_HEADER_SIZE;
    const extraStart = nameStart + u16(cd, at + 28);
    const extraEnd = extraStart + u16(cd, at + 30);
    const next = extraEnd + u16(cd, at + 32);
    if (next > cd.length) throw corrupt('central directory entry runs past the directory');

    let unicodePath = false;
    let zip64Seen = false;
    for (let field = extraStart; field < extraEnd - 3; ) {
      const id = u16(cd, field);
      const dataStart = field + 4;
      const dataEnd = dataStart + u16(cd, field + 2);
      if (dataEnd > extraEnd) throw corrupt('extra field length exceeds extra field buffer size');
      if (id === UNICODE_PATH_EXTRA) unicodePath = true;
      if (id === ZIP64_EXTRA && !zip64Seen) {
        zip64Seen = true;
        // Only the fields whose 32-bit value is 0xffffffff are present, in this order.
        let cursor = dataStart;
        if (uncompressedSize === UINT32_MAX) {
          uncompressedSize = zip64Value(cd, cursor, dataEnd);
          cursor += 8;
        }
        if (compressedSize === UINT32_MAX) {
          compressedSize = zip64Value(cd, cursor, dataEnd);
          cursor += 8;
        }
        if (localHeaderOffset === UINT32_MAX) localHeaderOffset = zip64Value(cd, cursor, dataEnd);
      }
      field = dataEnd;
    }

    if (method === 0 && compressedSize !== uncompressedSize + (flags & FLAG_ENCRYPTED ? ENCRYPTION_HEADER : 0)) {
      throw corrupt('compressed/uncompressed size mismatch for stored file');
    }
    let name = text.substring(nameStart, extraStart);
    if (unicodePath || NEEDS_CARE.test(name)) {
      name = decodeName(cd, nameStart, extraStart, flags, extraStart, extraEnd, unicodePath);
      if (isIllegalPath(name)) throw inspectionFailure('illegalPath', name.slice(0, 200));
    }
    if (entries.size >= limits.maxEntries) throw inspectionFailure('zipBomb', `文件数量超过 ${limits.maxEntries}`);
    entries.add(name, localHeaderOffset, compressedSize, uncompressedSize, crc32, method, flags);
    at = next;
  }
  return entries;
}

/**
 * Rejects archives that would explode when extracted: declared sizes, ratios and overlapping entries (how
 * non-recursive zip bombs multiply one compressed kernel). Returns the declared uncompressed total.
 */
export function assertNotBomb(
  entries: EntryTable,
  fileSize: number,
  cdOffset: number,
  limits: InspectionLimits,
): number {
  const count = entries.size;
  const starts = entries.localHeaderOffsets;
  const compressed = entries.compressedSizes;
  const uncompressed = entries.uncompressedSizes;
  let total = 0;
  // Archives are written in offset order: then overlaps show between neighbours and no sort is needed.
  let sorted = true;
  let overlapping = false;
  let previousStart = 0;
  let previousEnd = 0;
  for (let row = 0; row < count; row += 1) {
    const start = starts[row] as number;
    const packed = compressed[row] as number;
    const size = uncompressed[row] as number;
    total += size;
    if (size > limits.ratioFloorBytes && size / Math.max(1, packed) > limits.maxCompressionRatio)
      throw inspectionFailure('zipBomb');
    if (start < previousStart) sorted = false;
    else if (row > 0 && start < previousEnd) overlapping = true;
    previousStart = start;
    previousEnd = start + LOCAL_HEADER_MIN + packed;
  }
  if (total > limits.maxTotalUncompressedBytes) throw inspectionFailure('zipBomb');
  if (total > limits.ratioFloorBytes && total / Math.max(1, fileSize) > limits.maxCompressionRatio)
    throw inspectionFailure('zipBomb');
  if (!sorted) return assertNoOverlapUnsorted(entries, cdOffset, total);
  if (overlapping) throw inspectionFailure('zipBomb');
  if (count > 0 && previousEnd > cdOffset) throw inspectionFailure('corrupt');
  return total;
}

function assertNoOverlapUnsorted(entries: EntryTable, cdOffset: number, total: number): number {
  const starts = entries.localHeaderOffsets;
  const compressed = entries.compressedSizes;
  const order = Array.from({ length: entries.size }, (_, row) => row).sort(
    (a, b) => (starts[a] as number) - (starts[b] as number),
  );
  let previousEnd = 0;
  for (const row of order) {
    if ((starts[row] as number) < previousEnd) throw inspectionFailure('zipBomb');
    previousEnd = (starts[row] as number) + LOCAL_HEADER_MIN + (compressed[row] as number);
  }
  if (previousEnd > cdOffset) throw inspectionFailure('corrupt');
  return total;
}
