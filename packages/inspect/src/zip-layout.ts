import type { FileHandle } from 'node:fs/promises';

/** Where the central directory lives, read from the end-of-central-directory record (zip64 aware). */
export interface CentralDirectoryLocation {
  offset: number;
  size: number;
  entryCount: number;
  /** Start of the (zip32) EOCD record. */
  eocdOffset: number;
  /** Number of this disk: anything but 0 is a split archive, which cannot be read. */
  diskNumber: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const EOCD_MIN_SIZE = 22;
const ZIP64_LOCATOR_SIZE = 20;
const MAX_COMMENT = 0xffff;

export async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

/**
 * Finds the EOCD the way a strict reader does: the comment length must reach exactly the end of the file.
 * Returns null when there is none (not a zip, or a zip cut short).
 */
export async function locateCentralDirectory(
  handle: FileHandle,
  fileSize: number,
): Promise<CentralDirectoryLocation | null> {
  const tailLength = Math.min(fileSize, EOCD_MIN_SIZE + MAX_COMMENT + ZIP64_LOCATOR_SIZE);
  const tailStart = fileSize - tailLength;
  const tail = await readAt(handle, tailStart, tailLength);
  for (let i = tail.length - EOCD_MIN_SIZE; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    const commentLength = tail.readUInt16LE(i + 20);
    if (i + EOCD_MIN_SIZE + commentLength !== tail.length) continue;
    const location: CentralDirectoryLocation = {
      entryCount: tail.readUInt16LE(i + 10),
      size: tail.readUInt32LE(i + 12),
      offset: tail.readUInt32LE(i + 16),
      eocdOffset: tailStart + i,
      diskNumber: tail.readUInt16LE(i + 4),
    };
    const locatorAt = i - ZIP64_LOCATOR_SIZE;
    if (locatorAt >= 0 && tail.readUInt32LE(locatorAt) === ZIP64_LOCATOR_SIGNATURE) {
      const zip64At = Number(tail.readBigUInt64LE(locatorAt + 8));
      if (zip64At + 56 > fileSize) return null;
      const record = await readAt(handle, zip64At, 56);
      if (record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) return null;
      location.entryCount = Number(record.readBigUInt64LE(32));
      location.size = Number(record.readBigUInt64LE(40));
      location.offset = Number(record.readBigUInt64LE(48));
      location.diskNumber = record.readUInt32LE(16);
    }
    return location;
  }
  return null;
}

const LOCAL_HEADER_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

/** True when the file starts like a zip (so a missing EOCD means it was cut short). */
export function startsLikeZip(head: Buffer): boolean {
  const magic = head.subarray(0, 4);
  return magic.equals(LOCAL_HEADER_MAGIC) || magic.equals(EMPTY_ZIP_MAGIC);
}
