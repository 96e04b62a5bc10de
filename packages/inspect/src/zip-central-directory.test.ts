import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { reasonOf } from './testing/expect-failure.ts';
import { assertNotBomb, parseCentralDirectory } from './zip-central-directory.ts';
import { defaultLimits } from './zip-index.ts';

/** One central-directory record, built by hand so every field can be what a test needs. */
interface RecordSpec {
  name: Buffer | string;
  flags?: number;
  method?: number;
  crc?: number;
  compressed?: number;
  uncompressed?: number;
  offset?: number;
  extra?: Buffer;
}

function record(spec: RecordSpec): Buffer {
  const name = typeof spec.name === 'string' ? Buffer.from(spec.name, 'utf8') : spec.name;
  const extra = spec.extra ?? Buffer.alloc(0);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(spec.flags ?? 0x0800, 8);
  header.writeUInt16LE(spec.method ?? 0, 10);
  header.writeUInt32LE(spec.crc ?? 0, 16);
  header.writeUInt32LE(spec.compressed ?? 0, 20);
  header.writeUInt32LE(spec.uncompressed ?? spec.compressed ?? 0, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt32LE(spec.offset ?? 0, 42);
  return Buffer.concat([header, name, extra]);
}

function extraField(id: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(id, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

function u64s(...values: number[]): Buffer {
  const data = Buffer.alloc(values.length * 8);
  for (const [index, value] of values.entries()) data.writeBigUInt64LE(BigInt(value), index * 8);
  return data;
}

const parse = (...records: Buffer[]) => parseCentralDirectory(Buffer.concat(records), records.length, defaultLimits);
const reasonOfParse = (...records: Buffer[]) => reasonOf(async () => parse(...records));

describe('parseCentralDirectory', () => {
  it('takes 64-bit sizes and offsets from the zip64 extra field, only for the fields marked 0xffffffff', () => {
    const big = 5 * 1024 ** 3;
    const entries = parse(
      record({
        name: 'big.bin',
        method: 8,
        compressed: 0xffffffff,
        uncompressed: 0xffffffff,
        offset: 0xffffffff,
        extra: extraField(1, u64s(big, big - 10, big + 100)),
      }),
      record({
        name: 'small.bin',
        method: 8,
        compressed: 10,
        uncompressed: 0xffffffff,
        extra: extraField(1, u64s(12)),
      }),
    );
    expect(entries.locate('big.bin')).toMatchObject({
      uncompressedSize: big,
      compressedSize: big - 10,
      localHeaderOffset: big + 100,
    });
    expect(entries.locate('small.bin')).toMatchObject({
      uncompressedSize: 12,
      compressedSize: 10,
      localHeaderOffset: 0,
    });
  });

  it('calls a zip64 extra field too short for its marked fields corrupt', async () => {
    expect(
      await reasonOfParse(
        record({
          name: 'x',
          method: 8,
          compressed: 0xffffffff,
          uncompressed: 0xffffffff,
          extra: extraField(1, u64s(1)),
        }),
      ),
    ).toBe('corrupt');
  });

  it('decodes names as yauzl does: CP437 without the UTF-8 flag, Info-ZIP Unicode paths, backslashes as slashes', () => {
    const original = Buffer.from([0x81, 0x62, 0x65, 0x72, 0x2e, 0x74, 0x78, 0x74]);
    const unicode = Buffer.concat([Buffer.from([1]), Buffer.alloc(4), Buffer.from('Ünicode.txt', 'utf8')]);
    unicode.writeUInt32LE(crc32(Buffer.from('legacy.txt')) >>> 0, 1);
    const entries = parse(
      record({ name: original, flags: 0 }),
      record({ name: 'legacy.txt', flags: 0, extra: extraField(0x7075, unicode) }),
      record({ name: 'dir\\file.txt' }),
      record({ name: '名前/ファイル.txt' }),
    );
    expect([...entries.keys()]).toEqual(['über.txt', 'Ünicode.txt', 'dir/file.txt', '名前/ファイル.txt']);
  });

  it('keeps the first of duplicate names', () => {
    const entries = parse(
      record({ name: 'a', compressed: 1, offset: 0 }),
      record({ name: 'a', compressed: 2, offset: 100 }),
    );
    expect(entries.size).toBe(1);
    expect(entries.locate('a')).toMatchObject({ compressedSize: 1, localHeaderOffset: 0 });
  });

  it.each([
    ['a/../../b', 'illegalPath'],
    ['/abs', 'illegalPath'],
    ['C:/x', 'illegalPath'],
    ['..\\x', 'illegalPath'],
    ['nul\0byte', 'illegalPath'],
  ])('refuses the name %j', async (name, reason) => {
    expect(await reasonOfParse(record({ name }))).toBe(reason);
  });

  it('accepts names that only look suspicious', () => {
    expect([...parse(record({ name: 'a..b/c..' }), record({ name: '..hidden/x', offset: 40 })).keys()]).toEqual([
      'a..b/c..',
      '..hidden/x',
    ]);
  });

  it('calls damaged records corrupt, as yauzl did', async () => {
    const badSignature = record({ name: 'x' });
    badSignature.writeUInt32LE(0x12345678, 0);
    expect(await reasonOfParse(badSignature)).toBe('corrupt');
    expect(await reasonOfParse(record({ name: 'x', flags: 0x0840 }))).toBe('corrupt');
    expect(await reasonOfParse(record({ name: 'x', method: 0, compressed: 10, uncompressed: 11 }))).toBe('corrupt');
    expect(await reasonOf(async () => parseCentralDirectory(record({ name: 'x' }), 2, defaultLimits))).toBe('corrupt');
    const overflowingExtra = Buffer.concat([record({ name: 'x', extra: Buffer.from([1, 0, 50, 0]) })]);
    expect(await reasonOfParse(overflowingExtra)).toBe('corrupt');
  });

  it('counts a stored encrypted entry with its 12-byte header and flags it encrypted', () => {
    expect(
      parse(record({ name: 'secret', flags: 0x0801, compressed: 22, uncompressed: 10 })).get('secret')?.isEncrypted,
    ).toBe(true);
  });

  it('stops at the entry limit', async () => {
    const records = [record({ name: 'a' }), record({ name: 'b' }), record({ name: 'c' })];
    expect(
      await reasonOf(async () => parseCentralDirectory(Buffer.concat(records), 3, { ...defaultLimits, maxEntries: 2 })),
    ).toBe('zipBomb');
  });
});

describe('assertNotBomb', () => {
  it('finds overlapping entries also when the directory is not in offset order', async () => {
    const entries = parse(
      record({ name: 'b', compressed: 100, offset: 200 }),
      record({ name: 'a', compressed: 100, offset: 0 }),
      record({ name: 'c', compressed: 100, offset: 150 }),
    );
    expect(await reasonOf(async () => assertNotBomb(entries, 1000, 500, defaultLimits))).toBe('zipBomb');
  });

  it('accepts entries out of order that do not overlap, and sums their sizes', () => {
    const entries = parse(
      record({ name: 'b', compressed: 100, offset: 200 }),
      record({ name: 'a', compressed: 100, offset: 0 }),
    );
    expect(assertNotBomb(entries, 1000, 400, defaultLimits)).toBe(200);
  });

  it('calls data running into the central directory corrupt', async () => {
    const entries = parse(record({ name: 'a', compressed: 100, offset: 0 }));
    expect(await reasonOf(async () => assertNotBomb(entries, 1000, 100, defaultLimits))).toBe('corrupt');
  });
});
