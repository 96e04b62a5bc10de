import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ResourceIndexError } from '@release/inspect/hap-resources.ts';
import { openResourceIndex } from '@release/inspect/hap-resources-v2.ts';
import { PackageInspectionError } from '@release/inspect/inspection-error.ts';
import { inspectPackage } from '@release/inspect/package-inspector.ts';
import {
  buildResourcesIndex,
  hapSigningBlock,
  RES_TYPE,
  sampleHap,
  sampleHapEntries,
  sampleHapSigningBlock,
  sampleHarmonyApp,
} from '@release/inspect/testing/hap-builder.ts';
import type { SeededRandom } from '@release/inspect/testing/hostile/seeded-random.ts';
import { buildZip, type ZipEntrySpec } from '@release/inspect/testing/zip-writer.ts';
import { zipBoundaries } from './boundaries.ts';
import { input, isOneOf, type Campaign, type FuzzInput } from './campaign.ts';
import { asBuiltAndCut, MUTATION_SCALE, mutate, mutationsOf } from './mutate.ts';

/** HarmonyOS NEXT: restool's resources.index alone, and whole .hap / .hsp / .app files through inspectPackage. */

/** The ids the sample modules use (hap-builder): label, background, foreground, icon, and one no file has. */
export const SAMPLE_IDS = [0x01000000, 0x01000001, 0x01000002, 0x01000003, 0x7fffffff];
const HEADER = 136;

/** resources.index: the version string, size and count, every KEYS record, every IDSS table and row, every item's parts. */
export function resourcesIndexBoundaries(bytes: Buffer): number[] {
  const points = [0, 128, 132, HEADER];
  const count = bytes.readUInt32LE(132);
  const tables: number[] = [];
  let at = HEADER;
  for (let index = 0; index < count && at + 12 <= bytes.length; index += 1) {
    tables.push(bytes.readUInt32LE(at + 4));
    const keys = bytes.readUInt32LE(at + 8);
    points.push(at, at + 4, at + 8, at + 12, at + 12 + keys * 8);
    at += 12 + keys * 8;
  }
  for (const table of tables) {
    if (table + 8 > bytes.length) continue;
    const rows = bytes.readUInt32LE(table + 4);
    points.push(table, table + 4, table + 8);
    for (let row = 0; row < rows && table + 16 + row * 8 <= bytes.length; row += 1) {
      const item = bytes.readUInt32LE(table + 12 + row * 8);
      points.push(table + 8 + row * 8, item);
      if (item + 14 > bytes.length) continue;
      const valueEnd = item + 14 + bytes.readUInt16LE(item + 12);
      points.push(item + 4, item + 8, item + 12, item + 14, valueEnd, valueEnd + 2, item + bytes.readUInt32LE(item));
    }
  }
  return points;
}

/** A .hap / .hsp / .app: the zip's sections, and the HAP sign block's table, values and footer. */
export function harmonyPackageBoundaries(bytes: Buffer): number[] {
  const points = zipBoundaries(bytes);
  for (
    let magic = bytes.indexOf('<hap sign block>');
    magic >= 0;
    magic = bytes.indexOf('<hap sign block>', magic + 1)
  ) {
    const footer = magic - 12;
    if (footer < 0) continue;
    const count = bytes.readUInt32LE(footer);
    const start = footer + 32 - Number(bytes.readBigUInt64LE(footer + 4));
    points.push(footer, magic, footer + 32);
    for (let row = 0; row < count && row < 64 && start + row * 12 + 12 <= bytes.length; row += 1)
      points.push(start + row * 12, start + bytes.readUInt32LE(start + row * 12 + 8));
  }
  return points;
}

/** `bytes` with the 32-bit little-endian word at `at` replaced. */
export function patched(bytes: Buffer, at: number, value: number): Buffer {
  const copy = Buffer.from(bytes);
  if (at + 4 <= copy.length) copy.writeUInt32LE(value >>> 0, at);
  return copy;
}

export const labelItem = (id: number, value: string) => ({ id, type: RES_TYPE.string, name: 'app_name', value });

function hostileIndexes(sample: Buffer): FuzzInput[] {
  const firstTable = sample.readUInt32LE(HEADER + 4);
  const oneHugeTable = () => {
    // 5,000 configurations whose KEYS records all point at one IDSS table of 20,000 rows: 100 M row reads unbounded.
    const table = buildResourcesIndex([
      { locale: '', items: Array.from({ length: 20_000 }, (_, i) => labelItem(0x02000000 + i, 'x')) },
    ]);
    const records = Buffer.alloc(12 * 5000);
    for (let i = 0; i < 5000; i += 1) {
      records.write('KEYS', i * 12, 'latin1');
      records.writeUInt32LE(table.readUInt32LE(HEADER + 4) + records.length - 12, i * 12 + 4);
    }
    const bytes = Buffer.concat([table.subarray(0, HEADER), records, table.subarray(HEADER + 12)]);
    bytes.writeUInt32LE(5000, 132);
    return bytes;
  };
  return [
    ...[0xffff, 0x7fffffff, 0xffffffff].flatMap((value) => [
      input(`configuration count ${value}`, () => patched(sample, 132, value)),
      input(`first configuration's key count ${value}`, () => patched(sample, HEADER + 8, value)),
      input(`first configuration's table at ${value}`, () => patched(sample, HEADER + 4, value)),
      input(`first table's row count ${value}`, () => patched(sample, firstTable + 4, value)),
      input(`first row's item at ${value}`, () => patched(sample, firstTable + 12, value)),
    ]),
    input('first item claims a 65,535-byte value', () => {
      const bytes = Buffer.from(sample);
      bytes.writeUInt16LE(0xffff, sample.readUInt32LE(firstTable + 12) + 12);
      return bytes;
    }),
    input('the version string says RestoolV2', () => {
      const bytes = Buffer.from(sample);
      bytes.fill(0, 0, 128).write('RestoolV2 5.0.5', 0, 'latin1');
      return bytes;
    }),
    input('a table pointing at itself', () => patched(sample, firstTable + 12, firstTable)),
    input('5,000 configurations sharing one table of 20,000 rows', oneHugeTable),
    input('2,000 language configurations of one label', () =>
      buildResourcesIndex(
        Array.from({ length: 2000 }, (_, i) => ({
          locale: `${String.fromCharCode(0x61 + (i % 26), 0x61 + ((i / 26) % 26))}_${String.fromCharCode(0x41 + (i % 7), 0x41 + ((i / 7) % 26))}`,
          items: [labelItem(SAMPLE_IDS[0] as number, `名称${i}`)],
        })),
      ),
    ),
    input('a label of 60,000 bytes', () =>
      buildResourcesIndex([{ locale: '', items: [labelItem(SAMPLE_IDS[0] as number, '鸿'.repeat(20_000))] }]),
    ),
    input('only the header', () => sample.subarray(0, HEADER)),
    input('empty', () => Buffer.alloc(0)),
  ];
}

export const resourcesIndexCampaign: Campaign = {
  name: 'resources.index (HarmonyOS)',
  inputs(random) {
    const entry = sampleHapEntries().find((item) => item.name === 'resources.index');
    const sample = Buffer.from(entry?.data ?? '');
    return [
      ...asBuiltAndCut('resources.index', sample, resourcesIndexBoundaries),
      ...hostileIndexes(sample),
      ...mutationsOf('resources.index', sample, 250, random),
    ];
  },
  run(bytes) {
    const index = openResourceIndex(bytes);
    return SAMPLE_IDS.map((id) => index.itemsOf(id));
  },
  refuses: (error) => error instanceof ResourceIndexError,
};

/** A module rebuilt with its entries as given and the sign block `block` (none when null). */
function moduleWith(entries: ZipEntrySpec[], block: Buffer | null): Buffer {
  return block ? buildZip(entries, { beforeCentralDirectory: block }) : buildZip(entries);
}

function withEntry(entries: ZipEntrySpec[], name: string, data: Buffer | string): ZipEntrySpec[] {
  const others = entries.filter((entry) => entry.name !== name);
  return [...others, { name, data, method: 'store' as const }];
}

function hostileModules(): FuzzInput[] {
  const entries = sampleHapEntries();
  const block = sampleHapSigningBlock();
  const signedWith = (profile: Buffer) =>
    hapSigningBlock([
      [0x20000002, profile],
      [0x20000000, Buffer.alloc(8)],
    ]);
  const lyingFooter = (offset: number, value: bigint | number) => {
    const bytes = Buffer.from(block);
    const footer = bytes.length - 32;
    if (offset === 4) bytes.writeBigUInt64LE(BigInt(value), footer + 4);
    else bytes.writeUInt32LE(Number(value) >>> 0, footer + offset);
    return bytes;
  };
  return [
    input('.hap: module.json nested 100,000 deep', () =>
      moduleWith(withEntry(entries, 'module.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`), block),
    ),
    input('.hap: module.json of 2 MiB', () =>
      moduleWith(withEntry(entries, 'module.json', `{"app":{"bundleName":"${'a'.repeat(2 << 20)}"}}`), block),
    ),
    input('.hap: module.json declared 4 GiB', () =>
      buildZip([
        { name: 'module.json', data: '{}', declaredUncompressedSize: 0xffffffff },
        ...entries.filter((entry) => entry.name !== 'module.json'),
      ]),
    ),
    input('.hap: 10,000 dependencies and device types', () =>
      moduleWith(
        withEntry(
          entries,
          'module.json',
          JSON.stringify({
            app: { bundleName: 'com.example.harmony', versionCode: 1 },
            module: {
              name: 'entry',
              deviceTypes: Array.from({ length: 10_000 }, (_, i) => `d${i}`),
              dependencies: Array.from({ length: 10_000 }, (_, i) => ({ moduleName: `m${i}` })),
            },
          }),
        ),
        block,
      ),
    ),
    input('.hap: layered icon naming itself as its layers', () =>
      moduleWith(
        withEntry(
          entries,
          'resources/base/media/layered_image.json',
          JSON.stringify({ 'layered-image': { background: '$media:16777219', foreground: '$media:16777219' } }),
        ),
        block,
      ),
    ),
    input('.hap: resources.index of 40 MiB', () =>
      moduleWith(withEntry(entries, 'resources.index', Buffer.alloc(40 << 20)), block),
    ),
    input('.hap: sign block footer claims 2^32-1 sub-blocks', () => moduleWith(entries, lyingFooter(0, 0xffffffff))),
    input('.hap: sign block footer claims 2^40 bytes', () => moduleWith(entries, lyingFooter(4, 2n ** 40n))),
    input('.hap: sign block footer claims 0 bytes', () => moduleWith(entries, lyingFooter(4, 0))),
    input('.hap: sign block values past its end', () => {
      const bytes = Buffer.from(block);
      bytes.writeUInt32LE(0xfffffff0, 8);
      bytes.writeUInt32LE(0xffffff00, 4);
      return moduleWith(entries, bytes);
    }),
    input('.hap: profile of 2 MiB of JSON', () =>
      moduleWith(entries, signedWith(Buffer.from(`{"type":"${'x'.repeat(2 << 20)}"}`))),
    ),
    input('.hap: 64 empty sub-blocks', () =>
      moduleWith(entries, hapSigningBlock(Array.from({ length: 64 }, (_, i) => [0x20000000 + i, Buffer.alloc(0)]))),
    ),
    input('.app: 80 modules', () => {
      const module = sampleHap({ profile: null, icon: 'none' });
      return sampleHarmonyApp(Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`m${i}.hap`, module])));
    }),
    input('.app: a module that is an .app holding a module', () =>
      sampleHarmonyApp({ 'entry.hap': sampleHarmonyApp({ 'inner.hap': sampleHap({ profile: null }) }) }),
    ),
    input('.app: modules of two bundles', () =>
      sampleHarmonyApp({
        'entry.hap': sampleHap({ profile: null }),
        'lib.hsp': sampleHap({ profile: null, moduleType: 'shared', moduleName: 'lib', bundleName: 'com.other' }),
      }),
    ),
    input('.app: pack.info and no module', () => sampleHarmonyApp({ 'entry.hap': Buffer.alloc(0) })),
  ];
}

/** One entry of the module (or its sign block) mutated, so the edit reaches the reader behind the zip's CRC. */
function innerMutations(random: SeededRandom): FuzzInput[] {
  const entries = sampleHapEntries();
  const block = sampleHapSigningBlock({ type: 'debug', devices: ['a'.repeat(64)] });
  const mutated = (name: string, count: number) =>
    Array.from({ length: count * MUTATION_SCALE }, (_, index) => {
      const entry = entries.find((item) => item.name === name);
      const { bytes, edits } = mutate(Buffer.from(entry?.data ?? ''), random);
      return input(`.hap with ${name} mutated #${index}: ${edits}`, () =>
        moduleWith(withEntry(entries, name, bytes), block),
      );
    });
  const blockMutations = Array.from({ length: 60 * MUTATION_SCALE }, (_, index) => {
    const { bytes, edits } = mutate(block, random);
    return input(`.hap with its sign block mutated #${index}: ${edits}`, () => moduleWith(entries, bytes));
  });
  return [
    ...mutated('module.json', 50),
    ...mutated('resources.index', 60),
    ...mutated('resources/base/media/layered_image.json', 30),
    ...mutated('resources/base/media/foreground.png', 20),
    ...mutated('pack.info', 20),
    ...blockMutations,
  ];
}

export const harmonyPackageCampaign: Campaign = {
  name: 'HarmonyOS .hap / .hsp / .app',
  inputs(random) {
    const hap = sampleHap();
    const hsp = sampleHap({ moduleType: 'shared', moduleName: 'lib', profile: { type: 'debug', devices: ['d1'] } });
    const app = sampleHarmonyApp({ 'entry-default-signed.hap': hap, 'lib-default-signed.hsp': hsp });
    const samples = { '.hap': hap, '.hsp': hsp, '.app': app };
    return [
      ...Object.entries(samples).flatMap(([name, bytes]) => asBuiltAndCut(name, bytes, harmonyPackageBoundaries)),
      ...hostileModules(),
      ...Object.entries(samples).flatMap(([name, bytes]) => mutationsOf(name, bytes, 40, random)),
      ...innerMutations(random),
    ];
  },
  async run(bytes, { tempDir }) {
    const file = path.join(tempDir, 'package');
    writeFileSync(file, bytes);
    return inspectPackage(file);
  },
  refuses: (error) => isOneOf(error, [PackageInspectionError]),
};
