import { describe, expect, it } from 'vitest';
import { ProtoResourceTable } from './aab-inspector.ts';
import { certificatesOfSchemeBlock, MAX_SIGNERS } from './apk-signature.ts';
import { RESOLVE_BUDGET, ResourceTable } from './arsc.ts';
import { AXML_LIMITS, parseBinaryXml } from './axml.ts';
import { Asn1Error, DER_LIMITS, parseAsn1 } from './der.ts';
import { ChunkType, ResourceFormatError, StringPool, readChunkHeader } from './res-string-pool.ts';
import { buildArsc } from './testing/arsc-writer.ts';
import { buildAxml } from './testing/axml-writer.ts';
import { schemeBlockValue } from './testing/packages.ts';
import { field } from './testing/proto-writer.ts';
import { chunk } from './testing/res-writer.ts';

/** Limits of docs/parsers.md that are not the plist reader's: each refused or cut off before the work grows. */

function derSequence(children: Buffer[]): Buffer {
  const body = Buffer.concat(children);
  if (body.length < 0x80) return Buffer.concat([Buffer.from([0x30, body.length]), body]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  return Buffer.concat([Buffer.from([0x30, 0x84]), length, body]);
}

describe('DER', () => {
  it(`refuses more than ${DER_LIMITS.maxNodes.toLocaleString('en')} nodes and more than ${DER_LIMITS.maxDepth} levels`, () => {
    const nulls = (count: number) => derSequence(Array.from({ length: count }, () => Buffer.from([0x05, 0x00])));
    expect(parseAsn1(nulls(DER_LIMITS.maxNodes - 1)).children).toHaveLength(DER_LIMITS.maxNodes - 1);
    expect(() => parseAsn1(nulls(DER_LIMITS.maxNodes))).toThrow(Asn1Error);
    // BER indefinite lengths nest without any length to check: 0x30 0x80 repeated.
    const deep = Buffer.concat([Buffer.alloc((DER_LIMITS.maxDepth + 2) * 2, 0), Buffer.alloc(0)]);
    for (let i = 0; i < DER_LIMITS.maxDepth + 2; i += 1) deep.set([0x30, 0x80], i * 2);
    expect(() => parseAsn1(Buffer.concat([deep, Buffer.alloc(deep.length, 0)]))).toThrow(/nesting too deep/);
  });
});

describe('Android binary XML', () => {
  it('refuses attribute records narrower than 20 bytes (65,535 attributes over a few bytes)', () => {
    const bytes = buildAxml({ name: 'manifest', attributes: [{ name: 'package', value: 'com.example' }] });
    expect(parseBinaryXml(bytes).attributes).toHaveLength(1);
    // The start element's attributeSize (ext + 10) set to 1 and its count to 65,535.
    const start = bytes.indexOf(Buffer.from([0x02, 0x01, 0x10, 0x00]));
    const ext = start + 16;
    const hostile = Buffer.from(bytes);
    hostile.writeUInt16LE(1, ext + 10);
    hostile.writeUInt16LE(0xffff, ext + 12);
    expect(() => parseBinaryXml(hostile)).toThrow(ResourceFormatError);
  });

  it(`refuses more than ${AXML_LIMITS.maxAttributes.toLocaleString('en')} attributes in one document`, () => {
    const attributes = Array.from({ length: 1000 }, (_, i) => ({ name: `a${i}`, value: { int: i } }));
    const children = Array.from({ length: AXML_LIMITS.maxAttributes / 1000 + 1 }, () => ({
      name: 'meta-data',
      attributes,
    }));
    expect(() => parseBinaryXml(buildAxml({ name: 'manifest', children }))).toThrow(/too many attributes/);
  });

  it('reads overlapping strings of a pool up to four times its size, then as unreadable', () => {
    // A UTF-16 pool whose 10,000 offsets all point at one 20,000-character string.
    const text = Buffer.from('x'.repeat(20_000), 'utf16le');
    const count = 10_000;
    const offsets = Buffer.alloc(count * 4);
    const header = Buffer.alloc(20);
    header.writeUInt32LE(count, 0);
    header.writeUInt32LE(28 + offsets.length, 12);
    const length = Buffer.alloc(2);
    length.writeUInt16LE(20_000);
    for (let i = 0; i < count; i += 1) offsets.writeUInt32LE(0, i * 4);
    const bytes = chunk(ChunkType.stringPool, header, Buffer.concat([offsets, length, text, Buffer.alloc(2)]));
    const pool = new StringPool(bytes, readChunkHeader(bytes, 0));
    const read = Array.from({ length: count }, (_, i) => pool.get(i));
    const decoded = read.filter((value) => value !== null);
    expect(decoded[0]).toBe('x'.repeat(20_000));
    // 40,000 bytes a string against 4 × the pool's ~80 KB: a handful decoded, not 400 MB.
    expect(decoded.length).toBeLessThanOrEqual(10);
    expect(read.at(-1)).toBeNull();
  });
});

describe('resource tables', () => {
  it(`stops following references after ${RESOLVE_BUDGET.toLocaleString('en')} configurations (64 configurations referring to themselves: 64^5 without it)`, () => {
    const languages = Array.from({ length: 64 }, (_, i) => String.fromCharCode(0x61 + (i >> 3), 0x61 + (i & 7)));
    const { bytes, ids } = buildArsc([
      {
        key: 'string/loop',
        values: languages.map((language) => ({ config: { language }, value: { ref: 'string/loop' } })),
      },
    ]);
    const table = new ResourceTable(bytes);
    const budget = { left: RESOLVE_BUDGET };
    expect(table.resolve(ids['string/loop'] ?? 0, 5, budget)).toEqual([]);
    expect(budget.left).toBeLessThan(0);
    // An honest label resolves as before.
    const honest = buildArsc([
      {
        key: 'string/app_name',
        values: [{ value: { string: 'Demo' } }, { config: { language: 'zh' }, value: { ref: 'string/zh_name' } }],
      },
      { key: 'string/zh_name', values: [{ value: { string: '演示' } }] },
    ]);
    expect(
      new ResourceTable(honest.bytes).resolve(honest.ids['string/app_name'] ?? 0).map((item) => item.text),
    ).toEqual(['Demo', '演示']);
  });

  it('bounds an App Bundle table the same way', () => {
    // Package 0x7f, type 1, entry 0: 64 configuration values, each an Item referring to 0x7f010000 itself.
    const selfReference = field(6, field(2, field(4, field(1, field(2, 0x7f010000)))));
    const entry = field(3, Buffer.concat([field(1, field(1, 0)), ...Array.from({ length: 64 }, () => selfReference)]));
    const pkg = field(
      2,
      Buffer.concat([field(1, field(1, 0x7f)), field(3, Buffer.concat([field(1, field(1, 1)), entry]))]),
    );
    const table = new ProtoResourceTable(pkg);
    const budget = { left: RESOLVE_BUDGET };
    expect(table.resolve(0x7f010000, 5, budget)).toEqual([]);
    expect(budget.left).toBeLessThan(0);
  });
});

describe('APK signing blocks', () => {
  it(`reads at most ${MAX_SIGNERS} signers of a scheme block`, () => {
    const der = Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]);
    expect(certificatesOfSchemeBlock(schemeBlockValue(Array.from({ length: 1000 }, () => [der])))).toHaveLength(
      MAX_SIGNERS,
    );
  });
});
