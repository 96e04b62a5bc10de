import { ResourceIndexError } from '@release/inspect/hap-resources.ts';
import { openResourceIndex } from '@release/inspect/hap-resources-v2.ts';
import { buildResourcesIndexV2, sampleHapEntries } from '@release/inspect/testing/hap-builder.ts';
import { input, type Campaign, type FuzzInput } from './campaign.ts';
import { labelItem, patched, SAMPLE_IDS } from './campaigns-harmony.ts';
import { asBuiltAndCut, mutationsOf } from './mutate.ts';

/** restool's `RestoolV2` resources.index alone (hap-resources-v2.ts), read as the inspector reads it. */

const HEADER = 140;

/** Where the IDSS block starts: right after the KEYS records. */
function idssOf(bytes: Buffer): number {
  let at = HEADER;
  const count = bytes.readUInt32LE(132);
  for (let index = 0; index < count && at + 12 <= bytes.length; index += 1) at += 12 + bytes.readUInt32LE(at + 8) * 8;
  return at;
}

/** Every header field, KEYS record, IDSS type group and row, DATA record and pair, and value. */
export function resourcesIndexV2Boundaries(bytes: Buffer): number[] {
  const points = [0, 128, 132, 136, HEADER];
  const idss = idssOf(bytes);
  points.push(idss, idss + 8, idss + 16);
  let at = idss + 16;
  const types = idss + 16 <= bytes.length ? bytes.readUInt32LE(idss + 8) : 0;
  for (let group = 0; group < types && at + 12 <= bytes.length; group += 1) {
    const count = bytes.readUInt32LE(at + 8);
    points.push(at, at + 8, at + 12);
    at += 12;
    for (let row = 0; row < count && at + 12 <= bytes.length; row += 1) {
      const record = bytes.readUInt32LE(at + 4);
      points.push(at, at + 4, at + 8, at + 12, record);
      if (record + 12 <= bytes.length) {
        const pairs = bytes.readUInt32LE(record + 8);
        for (let pair = 0; pair < pairs && record + 20 + pair * 8 <= bytes.length; pair += 1) {
          const value = bytes.readUInt32LE(record + 16 + pair * 8);
          points.push(record + 12 + pair * 8, value, value + 2);
        }
      }
      at += 12 + bytes.readUInt32LE(at + 8);
    }
  }
  return points;
}

function hostileIndexes(sample: Buffer): FuzzInput[] {
  const idss = idssOf(sample);
  const firstRow = idss + 28;
  const firstRecord = sample.readUInt32LE(firstRow + 4);
  return [
    ...[0xffff, 0x7fffffff, 0xffffffff].flatMap((value) => [
      input(`configuration count ${value}`, () => patched(sample, 132, value)),
      input(`DATA block at ${value}`, () => patched(sample, 136, value)),
      input(`first configuration's key count ${value}`, () => patched(sample, HEADER + 8, value)),
      input(`IDSS type count ${value}`, () => patched(sample, idss + 8, value)),
      input(`first type's row count ${value}`, () => patched(sample, idss + 24, value)),
      input(`first row's DATA record at ${value}`, () => patched(sample, firstRow + 4, value)),
      input(`first row's name length ${value}`, () => patched(sample, firstRow + 8, value)),
      input(`first record's value count ${value}`, () => patched(sample, firstRecord + 8, value)),
      input(`first record's value at ${value}`, () => patched(sample, firstRecord + 16, value)),
    ]),
    input('a row pointing at the record of another id', () => patched(sample, firstRow + 4, idss)),
    input('a value claiming 65,535 bytes', () => {
      const bytes = Buffer.from(sample);
      bytes.writeUInt16LE(0xffff, sample.readUInt32LE(firstRecord + 16));
      return bytes;
    }),
    input('20,000 configurations of one label', () =>
      buildResourcesIndexV2(
        Array.from({ length: 20_000 }, (_, i) => ({ locale: '', items: [labelItem(SAMPLE_IDS[0] as number, `${i}`)] })),
      ),
    ),
    input('one type of 100,000 labels', () =>
      buildResourcesIndexV2([
        { locale: '', items: Array.from({ length: 100_000 }, (_, i) => labelItem(0x02000000 + i, 'x')) },
      ]),
    ),
    input('a label of 60,000 bytes', () =>
      buildResourcesIndexV2([{ locale: '', items: [labelItem(SAMPLE_IDS[0] as number, '鸿'.repeat(20_000))] }]),
    ),
    input('only the header', () => sample.subarray(0, HEADER)),
    input('the V1 sample under a V2 version string', () => {
      const v1 = Buffer.from(sampleHapEntries().find((item) => item.name === 'resources.index')?.data ?? '');
      v1.fill(0, 0, 128).write('RestoolV2 5.1.0', 0, 'latin1');
      return v1;
    }),
  ];
}

export const resourcesIndexV2Campaign: Campaign = {
  name: 'resources.index V2 (HarmonyOS)',
  inputs(random) {
    const entry = sampleHapEntries({ resources: 'v2' }).find((item) => item.name === 'resources.index');
    const sample = Buffer.from(entry?.data ?? '');
    return [
      ...asBuiltAndCut('resources.index V2', sample, resourcesIndexV2Boundaries),
      ...hostileIndexes(sample),
      ...mutationsOf('resources.index V2', sample, 250, random),
    ];
  },
  run(bytes) {
    const index = openResourceIndex(bytes);
    return SAMPLE_IDS.map((id) => index.itemsOf(id));
  },
  refuses: (error) => error instanceof ResourceIndexError,
};
