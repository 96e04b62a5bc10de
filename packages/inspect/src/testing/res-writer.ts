/** Writers for Android resource chunks (string pools, chunk headers), for building test APKs. */

export function chunk(type: number, header: Buffer, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(8 + header.length, 2);
  head.writeUInt32LE(8 + header.length + body.length, 4);
  return Buffer.concat([head, header, body]);
}

export function pad4(buffer: Buffer): Buffer {
  const extra = (4 - (buffer.length % 4)) % 4;
  return extra ? Buffer.concat([buffer, Buffer.alloc(extra)]) : buffer;
}

function lengthUtf8(value: number): Buffer {
  return value > 0x7f ? Buffer.from([0x80 | (value >> 8), value & 0xff]) : Buffer.from([value]);
}

function encodeString(value: string, utf8: boolean): Buffer {
  if (utf8) {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([lengthUtf8(value.length), lengthUtf8(bytes.length), bytes, Buffer.from([0])]);
  }
  const bytes = Buffer.from(value, 'utf16le');
  const length = Buffer.alloc(2);
  length.writeUInt16LE(value.length);
  return Buffer.concat([length, bytes, Buffer.alloc(2)]);
}

/** A ResStringPool chunk, UTF-8 or UTF-16. */
export function stringPool(strings: string[], utf8: boolean): Buffer {
  const encoded = strings.map((value) => encodeString(value, utf8));
  const offsets = Buffer.alloc(strings.length * 4);
  let at = 0;
  encoded.forEach((bytes, index) => {
    offsets.writeUInt32LE(at, index * 4);
    at += bytes.length;
  });
  const data = pad4(Buffer.concat(encoded));
  const header = Buffer.alloc(20);
  header.writeUInt32LE(strings.length, 0);
  header.writeUInt32LE(0, 4);
  header.writeUInt32LE(utf8 ? 0x100 : 0, 8);
  header.writeUInt32LE(28 + offsets.length, 12);
  header.writeUInt32LE(0, 16);
  return chunk(0x0001, header, Buffer.concat([offsets, data]));
}

/** Res_value: size 8, res0, dataType, data. */
export function resValue(type: number, data: number): Buffer {
  const value = Buffer.alloc(8);
  value.writeUInt16LE(8, 0);
  value.writeUInt8(type, 3);
  value.writeUInt32LE(data >>> 0, 4);
  return value;
}

/** Collects strings in first-use order and hands out their indexes. */
export class StringTable {
  readonly strings: string[] = [];
  private readonly indexes = new Map<string, number>();

  index(value: string): number {
    const known = this.indexes.get(value);
    if (known !== undefined) return known;
    this.strings.push(value);
    this.indexes.set(value, this.strings.length - 1);
    return this.strings.length - 1;
  }
}
