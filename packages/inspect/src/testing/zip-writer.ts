import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A tiny zip writer for tests. Unlike real writers it will happily produce hostile archives:
 * `../` names, lying sizes, overlapping entries, bytes before the central directory.
 */
export interface ZipEntrySpec {
  name: string;
  data?: Buffer | string;
  method?: 'store' | 'deflate';
  /** Lie in the central directory about the uncompressed size. */
  declaredUncompressedSize?: number;
  /** Point this entry's central record at an earlier entry's local header (overlap bomb). */
  sameLocalHeaderAs?: number;
}

export interface ZipOptions {
  /** Raw bytes written between the last entry and the central directory (an APK Signing Block). */
  beforeCentralDirectory?: Buffer;
  comment?: string;
}

interface Written {
  header: Buffer;
  offset: number;
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
}

export function buildZip(entries: ZipEntrySpec[], options: ZipOptions = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  const written: Written[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data) : (entry.data ?? Buffer.alloc(0));
    const method = entry.method ?? (raw.length > 64 ? 'deflate' : 'store');
    const body = method === 'deflate' ? deflateRawSync(raw) : raw;
    const crc = crc32(raw) >>> 0;
    const common = Buffer.concat([
      u16(20), // version needed
      u16(0x0800), // UTF-8 names
      u16(method === 'deflate' ? 8 : 0),
      u16(0),
      u16(0x21), // DOS time / date
      u32(crc),
      u32(body.length),
      u32(raw.length),
      u16(name.length),
      u16(0),
    ]);
    const source = entry.sameLocalHeaderAs === undefined ? undefined : written[entry.sameLocalHeaderAs];
    let localOffset = offset;
    let centralCommon = common;
    if (source) {
      localOffset = source.offset;
      centralCommon = Buffer.from(source.header);
      centralCommon.writeUInt16LE(name.length, 22);
    } else {
      const local = Buffer.concat([u32(0x04034b50), common, name]);
      parts.push(local, body);
      offset += local.length + body.length;
    }
    if (entry.declaredUncompressedSize !== undefined) {
      centralCommon = Buffer.from(centralCommon);
      centralCommon.writeUInt32LE(entry.declaredUncompressedSize >>> 0, 18);
    }
    written.push({ header: centralCommon, offset: localOffset });
    central.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(0x031e),
        centralCommon,
        u16(0),
        u16(0),
        u16(0),
        u32(0),
        u32(localOffset),
        name,
      ]),
    );
  }
  if (options.beforeCentralDirectory) {
    parts.push(options.beforeCentralDirectory);
    offset += options.beforeCentralDirectory.length;
  }
  const cd = Buffer.concat(central);
  const comment = Buffer.from(options.comment ?? '', 'utf8');
  const eocd = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(entries.length),
    u16(entries.length),
    u32(cd.length),
    u32(offset),
    u16(comment.length),
    comment,
  ]);
  return Buffer.concat([...parts, cd, eocd]);
}
