import type { PlistValue } from 'plist';
import { PLIST_LIMITS, PlistLimitError, setEntry, ValueBudget, type PlistLimits } from './plist-limits.ts';

/**
 * A bounded reader of binary property lists (`bplist00`), giving the values the `plist` package gives. That
 * package follows every object reference anew: one array referenced twice at each of 24 levels made 2^24
 * values (a 42 KB ipa held the server 43 s; at 26 levels it ran out of memory). Here every value produced
 * is counted, shared references included, against the limits and against the file's own size (without
 * shared containers a binary plist cannot hold more values than bytes); a container reached again inside
 * itself is a cycle and refused; strings are decoded once per object.
 */
export class BinaryPlistError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BinaryPlistError';
  }
}

const HEADER = 8;
const TRAILER = 32;
const EPOCH_2001_MS = 978_307_200_000;
const LONG_STRING = 64;

class Reader {
  private readonly view: DataView;
  private readonly offsetSize: number;
  private readonly refSize: number;
  private readonly objectCount: number;
  private readonly offsetTable: number;
  private readonly budget: ValueBudget;
  /** Containers being read right now (cycle check). */
  private readonly open: Uint8Array;
  /** Long decoded strings by object, so a long string referenced a million times is decoded once. */
  private readonly strings = new Map<number, string>();
  private readonly text: Buffer;
  readonly top: number;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly limits: PlistLimits,
  ) {
    const length = bytes.length;
    if (length < HEADER + TRAILER + 1) throw new BinaryPlistError('too short');
    this.view = new DataView(bytes.buffer, bytes.byteOffset, length);
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, length);
    const trailer = length - TRAILER;
    this.offsetSize = bytes[trailer + 6] as number;
    this.refSize = bytes[trailer + 7] as number;
    if (this.offsetSize < 1 || this.offsetSize > 8 || this.refSize < 1 || this.refSize > 8)
      throw new BinaryPlistError('bad trailer');
    this.objectCount = this.uint(trailer + 8, 8);
    this.top = this.uint(trailer + 16, 8);
    this.offsetTable = this.uint(trailer + 24, 8);
    // Every object takes a byte at least and lies between the header and the offset table.
    if (this.offsetTable < HEADER || this.offsetTable > trailer) throw new BinaryPlistError('bad offset table');
    if (this.objectCount < 1 || this.objectCount > this.offsetTable - HEADER)
      throw new BinaryPlistError('bad object count');
    if (this.offsetTable + this.objectCount * this.offsetSize > trailer)
      throw new BinaryPlistError('offset table past the trailer');
    if (this.top >= this.objectCount) throw new BinaryPlistError('bad top object');
    this.open = new Uint8Array(this.objectCount);
    this.budget = new ValueBudget(Math.min(limits.maxValues, length));
  }

  /** A big-endian unsigned integer of 1-8 bytes; past 2^53 is refused (no offset or count gets there). */
  private uint(at: number, size: number): number {
    if (size === 1) return this.bytes[at] as number;
    if (size === 2) return ((this.bytes[at] as number) << 8) | (this.bytes[at + 1] as number);
    let value = 0;
    for (let i = 0; i < size; i += 1) value = value * 256 + (this.bytes[at + i] as number);
    if (!Number.isSafeInteger(value)) throw new BinaryPlistError('number too large');
    return value;
  }

  private objectStart(index: number): number {
    const at = this.uint(this.offsetTable + index * this.offsetSize, this.offsetSize);
    if (at < HEADER || at >= this.offsetTable) throw new BinaryPlistError('object outside the object area');
    return at;
  }

  /** Checks that `count` bytes from `at` lie inside the object area. */
  private span(at: number, count: number): number {
    if (count > this.offsetTable - at) throw new BinaryPlistError('object runs past its area');
    return at;
  }

  /** Where the content after the last `length` read starts (no tuple allocated per object). */
  private contentAt = 0;

  /** Length of a string, data, array or dictionary: the marker's low nibble, or an integer after it (contentAt set). */
  private length(marker: number, at: number): number {
    const low = marker & 0x0f;
    if (low !== 0x0f) {
      this.contentAt = at;
      return low;
    }
    const sizeMarker = this.bytes[this.span(at, 1)] as number;
    if (sizeMarker >> 4 !== 0x1 || (sizeMarker & 0x0f) > 3) throw new BinaryPlistError('bad length');
    const size = 1 << (sizeMarker & 0x0f);
    this.contentAt = at + 1 + size;
    return this.uint(this.span(at + 1, size), size);
  }

  private ref(at: number): number {
    const index = this.uint(at, this.refSize);
    if (index >= this.objectCount) throw new BinaryPlistError('reference past the object table');
    return index;
  }

  private stringBytes(count: number): void {
    if (count > this.limits.maxStringBytes) throw new PlistLimitError('string too long');
  }

  read(index: number, depth: number): PlistValue {
    this.budget.take();
    const start = this.objectStart(index);
    const marker = this.bytes[start] as number;
    const at = start + 1;
    switch (marker >> 4) {
      case 0x0:
        if (marker === 0x00) return null;
        if (marker === 0x08) return false;
        if (marker === 0x09) return true;
        throw new BinaryPlistError('unknown singleton');
      case 0x1:
        return this.integer(marker & 0x0f, at);
      case 0x2: {
        const size = 1 << (marker & 0x0f);
        if (size === 4) return this.view.getFloat32(this.span(at, 4));
        if (size === 8) return this.view.getFloat64(this.span(at, 8));
        throw new BinaryPlistError('bad real');
      }
      case 0x3:
        return new Date(this.view.getFloat64(this.span(at, 8)) * 1000 + EPOCH_2001_MS);
      case 0x4: {
        const size = this.length(marker, at);
        this.stringBytes(size);
        return new Uint8Array(this.bytes.buffer, this.bytes.byteOffset + this.span(this.contentAt, size), size);
      }
      case 0x5:
      case 0x6:
        return this.string(index, marker, at);
      case 0x8: {
        const size = (marker & 0x0f) + 1;
        return { UID: this.uint(this.span(at, size), size) };
      }
      case 0xa:
        return this.array(index, marker, at, depth);
      case 0xd:
        return this.dict(index, marker, at, depth);
      default:
        throw new BinaryPlistError(`unsupported object type 0x${(marker >> 4).toString(16)}`);
    }
  }

  private integer(power: number, at: number): number {
    const size = 1 << power;
    if (size <= 4) return this.uint(this.span(at, size), size);
    // 8 bytes are signed; 16 bytes hold an unsigned 64-bit value in their low half.
    if (size !== 8 && size !== 16) throw new BinaryPlistError('bad integer');
    const low = this.span(at, size) + size - 8;
    return this.view.getInt32(low) * 0x1_0000_0000 + this.view.getUint32(low + 4);
  }

  private string(index: number, marker: number, at: number): string {
    const count = this.length(marker, at);
    const from = this.contentAt;
    const isUtf16 = marker >> 4 === 0x6;
    const size = isUtf16 ? count * 2 : count;
    // Short strings cost less to decode again than to look up; long ones are decoded once.
    const isLong = size > LONG_STRING;
    const cached = isLong ? this.strings.get(index) : undefined;
    if (cached !== undefined) return cached;
    this.stringBytes(size);
    const start = this.span(from, size);
    // UTF-16BE code units as they are (lone surrogates kept), as `plist` reads them.
    const text = isUtf16
      ? Buffer.from(this.text.subarray(start, start + size))
          .swap16()
          .toString('utf16le')
      : this.text.toString('latin1', start, start + size);
    if (isLong) this.strings.set(index, text);
    return text;
  }

  private enter(index: number, depth: number): void {
    if (depth >= this.limits.maxDepth) throw new PlistLimitError('nesting too deep');
    if (this.open[index]) throw new BinaryPlistError('reference cycle');
    this.open[index] = 1;
  }

  private array(index: number, marker: number, at: number, depth: number): PlistValue[] {
    const count = this.length(marker, at);
    const from = this.contentAt;
    this.span(from, count * this.refSize);
    this.enter(index, depth);
    const items: PlistValue[] = [];
    for (let i = 0; i < count; i += 1) items.push(this.read(this.ref(from + i * this.refSize), depth + 1));
    this.open[index] = 0;
    return items;
  }

  private dict(index: number, marker: number, at: number, depth: number): { [key: string]: PlistValue } {
    const count = this.length(marker, at);
    const from = this.contentAt;
    this.span(from, 2 * count * this.refSize);
    this.enter(index, depth);
    const dict: { [key: string]: PlistValue } = {};
    for (let i = 0; i < count; i += 1) {
      const key = this.read(this.ref(from + i * this.refSize), depth + 1);
      if (typeof key !== 'string') throw new BinaryPlistError('dictionary key is not a string');
      setEntry(dict, key, this.read(this.ref(from + (count + i) * this.refSize), depth + 1));
    }
    this.open[index] = 0;
    return dict;
  }
}

/** Reads a `bplist00` document within `limits`; throws BinaryPlistError or PlistLimitError. */
export function parseBinaryPlist(bytes: Uint8Array, limits: PlistLimits = PLIST_LIMITS): PlistValue {
  const reader = new Reader(bytes, limits);
  return reader.read(reader.top, 0);
}
