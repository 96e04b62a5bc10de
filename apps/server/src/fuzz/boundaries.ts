import { parseAsn1, type Asn1Node } from '@release/inspect/der.ts';

/** Where a real sample's sections begin and end, per format: the truncation points of the fuzz campaigns. */

/** bplist00: the header, every object, the offset table and the trailer. */
export function bplistBoundaries(bytes: Buffer): number[] {
  const trailer = bytes.length - 32;
  const offsetSize = bytes[trailer + 6] as number;
  const count = Number(bytes.readBigUInt64BE(trailer + 8));
  const table = Number(bytes.readBigUInt64BE(trailer + 24));
  const offsets = Array.from({ length: count }, (_, i) => bytes.readUIntBE(table + i * offsetSize, offsetSize));
  return [0, 8, ...offsets, table, trailer, bytes.length - 1];
}

/** DER / BER: every node's start, content start and end. */
export function derBoundaries(bytes: Buffer): number[] {
  const points: number[] = [];
  const walk = (node: Asn1Node) => {
    points.push(node.start, node.contentStart, node.end);
    node.children.forEach(walk);
  };
  walk(parseAsn1(bytes));
  return points;
}

/** Android resource chunks (AXML, resources.arsc): every chunk's start, header end and end, nested ones too. */
export function chunkBoundaries(bytes: Buffer): number[] {
  const points: number[] = [];
  const CONTAINERS = new Set([0x0002, 0x0003, 0x0200]);
  const walk = (start: number, end: number) => {
    for (let at = start; at + 8 <= end; ) {
      const headerSize = bytes.readUInt16LE(at + 2);
      const size = bytes.readUInt32LE(at + 4);
      points.push(at, at + headerSize, at + size);
      if (CONTAINERS.has(bytes.readUInt16LE(at))) walk(at + headerSize, at + size);
      if (size < 8) break;
      at += size;
    }
  };
  walk(0, bytes.length);
  return points;
}

function varintEnd(bytes: Buffer, at: number): number {
  let cursor = at;
  while (cursor < bytes.length && ((bytes[cursor] as number) & 0x80) !== 0) cursor += 1;
  return cursor + 1;
}

function varintAt(bytes: Buffer, at: number): number {
  let value = 0;
  let multiplier = 1;
  for (let cursor = at; cursor < bytes.length; cursor += 1) {
    value += ((bytes[cursor] as number) & 0x7f) * multiplier;
    if (((bytes[cursor] as number) & 0x80) === 0) break;
    multiplier *= 128;
  }
  return value;
}

/** Protocol buffers: every field's start and, for length-delimited fields, its content (read as a message too). */
export function protobufBoundaries(bytes: Buffer, base = 0, depth = 0): number[] {
  const points: number[] = [];
  let at = 0;
  while (at < bytes.length && depth < 64) {
    points.push(base + at);
    const key = varintAt(bytes, at);
    at = varintEnd(bytes, at);
    const wireType = key % 8;
    if (wireType === 0) at = varintEnd(bytes, at);
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = varintAt(bytes, at);
      at = varintEnd(bytes, at);
      if (at + length > bytes.length) break;
      points.push(base + at, ...protobufBoundaries(bytes.subarray(at, at + length), base + at, depth + 1));
      at += length;
    } else break;
  }
  return points;
}

/** PNG: the signature, then every chunk's length, data and CRC. */
export function pngBoundaries(bytes: Buffer): number[] {
  const points = [0, 8];
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    points.push(at, at + 4, at + 8, at + 8 + length, at + 12 + length);
    at += 12 + length;
  }
  return points;
}

const ZIP_SIGNATURES = [0x04034b50, 0x02014b50, 0x06054b50, 0x06064b50, 0x07064b50];

/** Zip: every local header and its data, every central record, the end records and an APK Signing Block. */
export function zipBoundaries(bytes: Buffer): number[] {
  const points: number[] = [];
  for (let at = 0; at + 4 <= bytes.length; at += 1) {
    const signature = bytes.readUInt32LE(at);
    if (!ZIP_SIGNATURES.includes(signature)) continue;
    points.push(at, at + 4);
    if (signature === 0x04034b50 && at + 30 <= bytes.length)
      points.push(at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28));
  }
  const magic = bytes.indexOf('APK Sig Block 42');
  if (magic >= 0) points.push(magic - 8, magic, magic + 16, magic + 16 - Number(bytes.readBigUInt64LE(magic - 8)) - 8);
  return points;
}

/** Text formats (XML, JSON): before every markup or structural character. */
export function textBoundaries(bytes: Buffer, characters: string): number[] {
  const points: number[] = [];
  for (let at = 0; at < bytes.length; at += 1)
    if (characters.includes(String.fromCharCode(bytes[at] as number))) points.push(at, at + 1);
  return points;
}
