/**
 * Android resource chunks and string pools, shared by binary XML (AXML) and resources.arsc.
 * Layouts follow AOSP `ResourceTypes.h`.
 */
export const ChunkType = {
  stringPool: 0x0001,
  table: 0x0002,
  xml: 0x0003,
  xmlStartNamespace: 0x0100,
  xmlEndNamespace: 0x0101,
  xmlStartElement: 0x0102,
  xmlEndElement: 0x0103,
  xmlCdata: 0x0104,
  xmlResourceMap: 0x0180,
  tablePackage: 0x0200,
  tableType: 0x0201,
  tableTypeSpec: 0x0202,
} as const;

export class ResourceFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceFormatError';
  }
}

export interface ChunkHeader {
  type: number;
  headerSize: number;
  size: number;
  start: number;
}

export function readChunkHeader(bytes: Buffer, start: number, limit = bytes.length): ChunkHeader {
  if (start + 8 > limit) throw new ResourceFormatError('truncated chunk header');
  const header = {
    type: bytes.readUInt16LE(start),
    headerSize: bytes.readUInt16LE(start + 2),
    size: bytes.readUInt32LE(start + 4),
    start,
  };
  if (header.headerSize < 8 || header.size < header.headerSize || start + header.size > limit) {
    throw new ResourceFormatError(`bad chunk 0x${header.type.toString(16)} at ${start}`);
  }
  return header;
}

const UTF8_FLAG = 0x100;
const utf8 = new TextDecoder('utf-8');
const utf16 = new TextDecoder('utf-16le');

/**
 * A string pool whose strings are decoded on first use (resources.arsc pools can hold 100k strings). Honest
 * pools hold each string once, so decoding them all costs the pool's size; strings that overlap (many indexes
 * into one long string) may cost at most four times that, then further strings read as unreadable (docs/parsers.md).
 */
export class StringPool {
  readonly count: number;
  private readonly isUtf8: boolean;
  private readonly offsetsAt: number;
  private readonly stringsAt: number;
  private readonly end: number;
  private readonly cache = new Map<number, string>();
  private decodeBudget: number;

  constructor(
    private readonly bytes: Buffer,
    header: ChunkHeader,
  ) {
    if (header.type !== ChunkType.stringPool || header.headerSize < 28)
      throw new ResourceFormatError('not a string pool');
    const at = header.start;
    this.count = bytes.readUInt32LE(at + 8);
    const flags = bytes.readUInt32LE(at + 16);
    this.isUtf8 = (flags & UTF8_FLAG) !== 0;
    this.offsetsAt = at + header.headerSize;
    this.stringsAt = at + bytes.readUInt32LE(at + 20);
    this.end = at + header.size;
    if (this.offsetsAt + this.count * 4 > this.end) throw new ResourceFormatError('string pool offsets overflow');
    this.decodeBudget = 4 * header.size + 64 * 1024;
  }

  private decode(decoder: typeof utf8, from: number, to: number): string | null {
    this.decodeBudget -= to - from;
    if (this.decodeBudget < 0) return null;
    return decoder.decode(this.bytes.subarray(from, to));
  }

  /** The string at `index`, or null for -1 / out-of-range / unreadable entries. */
  get(index: number): string | null {
    if (index < 0 || index >= this.count || index === 0xffffffff) return null;
    const cached = this.cache.get(index);
    if (cached !== undefined) return cached;
    const at = this.stringsAt + this.bytes.readUInt32LE(this.offsetsAt + index * 4);
    const value = this.isUtf8 ? this.readUtf8(at) : this.readUtf16(at);
    if (value !== null) this.cache.set(index, value);
    return value;
  }

  private readUtf8(at: number): string | null {
    if (at + 2 > this.end) return null;
    let cursor = at;
    // UTF-16 length first (unused), then the UTF-8 byte length; each is 1 or 2 bytes.
    cursor += (this.bytes[cursor] as number) & 0x80 ? 2 : 1;
    let length = this.bytes[cursor] as number;
    if (length & 0x80) {
      length = ((length & 0x7f) << 8) | (this.bytes[cursor + 1] as number);
      cursor += 2;
    } else {
      cursor += 1;
    }
    if (cursor + length > this.end) return null;
    return this.decode(utf8, cursor, cursor + length);
  }

  private readUtf16(at: number): string | null {
    if (at + 2 > this.end) return null;
    let cursor = at;
    let length = this.bytes.readUInt16LE(cursor);
    cursor += 2;
    if (length & 0x8000) {
      length = ((length & 0x7fff) << 16) | this.bytes.readUInt16LE(cursor);
      cursor += 2;
    }
    if (cursor + length * 2 > this.end) return null;
    return this.decode(utf16, cursor, cursor + length * 2);
  }
}

/** Res_value data types (subset used here). */
export const ValueType = {
  null: 0x00,
  reference: 0x01,
  attribute: 0x02,
  string: 0x03,
  float: 0x04,
  dimension: 0x05,
  dynamicReference: 0x07,
  intDec: 0x10,
  intHex: 0x11,
  intBoolean: 0x12,
  colorArgb8: 0x1c,
  colorRgb8: 0x1d,
  colorArgb4: 0x1e,
  colorRgb4: 0x1f,
} as const;

export interface TypedValue {
  type: number;
  data: number;
}

export function isColorType(type: number): boolean {
  return type >= ValueType.colorArgb8 && type <= ValueType.colorRgb4;
}

export function isIntType(type: number): boolean {
  return type === ValueType.intDec || type === ValueType.intHex;
}

export function isReferenceType(type: number): boolean {
  return type === ValueType.reference || type === ValueType.dynamicReference;
}

/** One 4-bit channel of a short colour, widened to 8 bits (0xf → 0xff). */
function nibble(data: number, shift: number): number {
  return ((data >>> shift) & 0xf) * 0x11;
}

/** ARGB from any of the four colour encodings. */
export function colorToArgb(value: TypedValue): number {
  const data = value.data >>> 0;
  switch (value.type) {
    case ValueType.colorRgb8:
      return (0xff000000 | data) >>> 0;
    case ValueType.colorArgb4:
    case ValueType.colorRgb4: {
      const alpha = value.type === ValueType.colorRgb4 ? 0xff : nibble(data, 12);
      return ((alpha << 24) | (nibble(data, 8) << 16) | (nibble(data, 4) << 8) | nibble(data, 0)) >>> 0;
    }
    default:
      return data;
  }
}
