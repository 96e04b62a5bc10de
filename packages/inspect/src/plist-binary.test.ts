import { buildBinary, parseBinary, type PlistValue } from 'plist';
import { describe, expect, it } from 'vitest';
import { BinaryPlistError, parseBinaryPlist } from './plist-binary.ts';
import { PLIST_LIMITS, PlistLimitError } from './plist-limits.ts';
import { sharedNestingInfoPlist, writeBplist, type BplistObject } from './testing/bplist-writer.ts';
import { seededRandom } from './testing/hostile/seeded-random.ts';

/** A random plist value as Apple's writers make them (strings, numbers, dates, data, nesting). */
function randomValue(random: ReturnType<typeof seededRandom>, depth: number): PlistValue {
  const kind = random.int(depth > 3 ? 6 : 8);
  switch (kind) {
    case 0:
      return random.pick(['', 'com.example.demo', '演示应用 ✓', 'a'.repeat(random.int(300)), '😀 emoji']);
    case 1:
      return random.pick([0, 1, 255, 256, 65_535, 65_536, 2 ** 31, 2 ** 40, -1, -(2 ** 33)]);
    case 2:
      return random.pick([1.5, -0.25, 1e300]);
    case 3:
      return random.int(2) === 0;
    case 4:
      return new Date(Date.UTC(2020 + random.int(10), random.int(12), 1 + random.int(28), random.int(24)));
    case 5:
      return new Uint8Array(random.bytes(random.int(40)));
    case 6:
      return Array.from({ length: random.int(5) }, () => randomValue(random, depth + 1));
    default: {
      const dict: Record<string, PlistValue> = {};
      for (let i = random.int(6); i > 0; i -= 1) dict[`key${random.int(20)}`] = randomValue(random, depth + 1);
      return dict;
    }
  }
}

const expectRefused = (bytes: Buffer, error: new (message: string) => Error, message?: RegExp) => {
  let thrown: unknown;
  try {
    parseBinaryPlist(bytes);
  } catch (caught) {
    thrown = caught;
  }
  expect(thrown).toBeInstanceOf(error);
  if (message) expect((thrown as Error).message).toMatch(message);
};

describe('parseBinaryPlist', () => {
  it('gives the values the plist package gives, for 300 generated documents', () => {
    const random = seededRandom(15);
    for (let i = 0; i < 300; i += 1) {
      const value = { root: randomValue(random, 0), list: [randomValue(random, 1), randomValue(random, 1)] };
      const bytes = Buffer.from(buildBinary(value));
      expect(parseBinaryPlist(bytes)).toEqual(parseBinary(bytes));
    }
  });

  it('reads shared strings and keys (as CFBinaryPlist writes them) once per reference', () => {
    const objects: BplistObject[] = [
      { array: [1, 1, 1] },
      {
        dict: [
          [2, 3],
          [4, 3],
        ],
      },
      { string: 'CFBundleIdentifier' },
      { string: 'same' },
      { string: '__proto__' },
    ];
    const value = parseBinaryPlist(writeBplist(objects)) as Array<Record<string, string>>;
    expect(value).toEqual([
      { CFBundleIdentifier: 'same', ['__proto__']: 'same' },
      { CFBundleIdentifier: 'same', ['__proto__']: 'same' },
      { CFBundleIdentifier: 'same', ['__proto__']: 'same' },
    ]);
    // `__proto__` is a key like any other, not the object's prototype.
    expect(Object.getPrototypeOf(value[0])).toBe(Object.prototype);
    expect(Object.keys(value[0] ?? {})).toEqual(['CFBundleIdentifier', '__proto__']);
  });

  it('refuses one array shared at every level (2^40 values for a reader that follows each reference anew)', () => {
    const bytes = sharedNestingInfoPlist(40, { CFBundleIdentifier: 'com.example.demo' });
    expect(bytes.length).toBeLessThan(400);
    expectRefused(bytes, PlistLimitError, /too many values/);
    // A few levels of sharing stay within one value per byte of the file and are read.
    const small = parseBinaryPlist(sharedNestingInfoPlist(3, { CFBundleIdentifier: 'com.example.demo' }));
    expect(small).toEqual({
      CFBundleIdentifier: 'com.example.demo',
      Nested: [
        [
          ['leaf', 'leaf'],
          ['leaf', 'leaf'],
        ],
        [
          ['leaf', 'leaf'],
          ['leaf', 'leaf'],
        ],
      ],
    });
  });

  it('refuses reference cycles, direct and through a dictionary', () => {
    expectRefused(writeBplist([{ array: [0] }]), BinaryPlistError, /cycle/);
    expectRefused(writeBplist([{ array: [1] }, { dict: [[2, 0]] }, { string: 'back' }]), BinaryPlistError, /cycle/);
  });

  it(`refuses nesting past ${PLIST_LIMITS.maxDepth} levels and reads it up to there`, () => {
    const chain = (levels: number): BplistObject[] => [
      ...Array.from({ length: levels }, (_, i) => ({ array: [i + 1] })),
      { string: 'leaf' },
    ];
    expectRefused(writeBplist(chain(PLIST_LIMITS.maxDepth + 1)), PlistLimitError, /nesting/);
    let value = parseBinaryPlist(writeBplist(chain(PLIST_LIMITS.maxDepth)));
    for (let level = 0; level < PLIST_LIMITS.maxDepth; level += 1) value = (value as PlistValue[])[0] as PlistValue;
    expect(value).toBe('leaf');
  });

  it('refuses counts and offsets that point past the file', () => {
    // An array that says it holds 2^32 - 1 references.
    const lyingCount = writeBplist([{ raw: Buffer.from([0xaf, 0x12, 0xff, 0xff, 0xff, 0xff, 0x01]) }, { string: 'a' }]);
    expectRefused(lyingCount, BinaryPlistError, /runs past/);
    const good = writeBplist([{ array: [1, 2] }, { string: 'a' }, { int: 7 }]);
    const trailer = good.length - 32;
    const tooManyObjects = Buffer.from(good);
    tooManyObjects.writeUInt32BE(0xffffffff, trailer + 12);
    expectRefused(tooManyObjects, BinaryPlistError, /object count/);
    const badTop = Buffer.from(good);
    badTop.writeUInt32BE(9, trailer + 20);
    expectRefused(badTop, BinaryPlistError, /top object/);
    const strayReference = writeBplist([{ array: [1, 200] }, { string: 'a' }]);
    expectRefused(strayReference, BinaryPlistError, /reference past/);
  });

  it('refuses a string longer than the limit without decoding it', () => {
    const limits = { ...PLIST_LIMITS, maxStringBytes: 100 };
    expect(parseBinaryPlist(writeBplist([{ string: 'x'.repeat(100) }]), limits)).toBe('x'.repeat(100));
    expect(() => parseBinaryPlist(writeBplist([{ string: 'x'.repeat(101) }]), limits)).toThrow(PlistLimitError);
    expect(() => parseBinaryPlist(writeBplist([{ string: '中'.repeat(51) }]), limits)).toThrow(PlistLimitError);
  });

  it('fails cleanly on every truncation of a valid document', () => {
    const bytes = Buffer.from(
      buildBinary({
        CFBundleIdentifier: 'com.example.demo',
        list: [1, 'two', { three: 3 }],
        data: new Uint8Array([1, 2, 3]),
      }),
    );
    for (let length = 0; length < bytes.length; length += 1) {
      expect(() => parseBinaryPlist(bytes.subarray(0, length)), `first ${length} bytes`).toThrow(/./);
      try {
        parseBinaryPlist(bytes.subarray(0, length));
      } catch (error) {
        expect(error instanceof BinaryPlistError || error instanceof PlistLimitError, String(error)).toBe(true);
      }
    }
  });
});
