import { parseProtoXml, ProtoResourceTable } from '@release/inspect/aab-inspector.ts';
import { readManifestModel } from '@release/inspect/apk-manifest.ts';
import { ResourceTable } from '@release/inspect/arsc.ts';
import { AndroidAttr, parseBinaryXml } from '@release/inspect/axml.ts';
import { PackageInspectionError } from '@release/inspect/inspection-error.ts';
import { ProtobufError } from '@release/inspect/protobuf.ts';
import { ResourceFormatError } from '@release/inspect/res-string-pool.ts';
import { buildArsc } from '@release/inspect/testing/arsc-writer.ts';
import { buildAxml, type AxmlElement } from '@release/inspect/testing/axml-writer.ts';
import { field, xmlNode, type ProtoElement } from '@release/inspect/testing/proto-writer.ts';
import { sampleApkEntries } from '@release/inspect/testing/sample-packages.ts';
import { chunkBoundaries, protobufBoundaries } from './boundaries.ts';
import { input, isOneOf, type Campaign, type FuzzInput } from './campaign.ts';
import { asBuiltAndCut, mutationsOf } from './mutate.ts';

/** Android binary XML, resources.arsc and the App Bundle's protobuf manifest and resources.pb. */

function sampleApkPart(name: string): Buffer {
  const entry = sampleApkEntries().entries.find((item) => item.name === name);
  return Buffer.from(entry?.data ?? '');
}

/** `sample` with the 32-bit little-endian word at `at` replaced. */
function patched(sample: Buffer, at: number, value: number): Buffer {
  const bytes = Buffer.from(sample);
  if (at + 4 <= bytes.length) bytes.writeUInt32LE(value >>> 0, at);
  return bytes;
}

function nestedAxml(depth: number): AxmlElement {
  let element: AxmlElement = { name: 'leaf' };
  for (let i = 0; i < depth; i += 1) element = { name: 'e', children: [element] };
  return { name: 'manifest', children: [element] };
}

function hostileAxml(sample: Buffer): FuzzInput[] {
  // The first string pool's header follows the 8-byte document header: its count at +8, offsets at +20/+24.
  const pool = 8;
  return [
    input('elements nested 1,000 deep', () => buildAxml(nestedAxml(1000))),
    input('210,000 elements', () =>
      buildAxml({ name: 'manifest', children: Array.from({ length: 210_000 }, () => ({ name: 'uses-permission' })) }),
    ),
    input('an element with 5,000 attributes, 20 times', () =>
      buildAxml({
        name: 'manifest',
        children: Array.from({ length: 20 }, () => ({
          name: 'meta-data',
          attributes: Array.from({ length: 5000 }, (_, i) => ({ name: `a${i}`, value: { int: i } })),
        })),
      }),
    ),
    ...[0xffff, 0x7fffffff, 0xffffffff].flatMap((value) => [
      input(`string pool count ${value}`, () => patched(sample, pool + 8, value)),
      input(`string pool strings start ${value}`, () => patched(sample, pool + 20, value)),
      input(`document size ${value}`, () => patched(sample, 4, value)),
    ]),
  ];
}

export const axmlCampaign: Campaign = {
  name: 'Android binary XML',
  inputs(random) {
    const manifest = sampleApkPart('AndroidManifest.xml');
    return [
      ...asBuiltAndCut('manifest', manifest, chunkBoundaries),
      ...hostileAxml(manifest),
      ...mutationsOf('manifest', manifest, 250, random),
    ];
  },
  run: (bytes) => readManifestModel(parseBinaryXml(bytes)),
  refuses: (error) => isOneOf(error, [ResourceFormatError, PackageInspectionError]),
};

const LABEL = 0x7f010000;

function hostileArsc(): FuzzInput[] {
  const languages = (count: number) =>
    Array.from({ length: count }, (_, i) => String.fromCharCode(0x61 + ((i >> 5) % 26), 0x61 + (i % 26)));
  return [
    input(
      '64 configurations referring to themselves',
      () =>
        buildArsc([
          {
            key: 'string/app_name',
            values: languages(64).map((language) => ({ config: { language }, value: { ref: 'string/app_name' } })),
          },
        ]).bytes,
    ),
    input(
      'two names referring to each other',
      () =>
        buildArsc([
          { key: 'string/app_name', values: [{ value: { ref: 'string/other' } }] },
          { key: 'string/other', values: [{ value: { ref: 'string/app_name' } }] },
        ]).bytes,
    ),
    input(
      '600 configurations of one name',
      () =>
        buildArsc([
          {
            key: 'string/app_name',
            values: languages(600).map((language, i) => ({
              config: { language, density: i },
              value: { string: `n${i}` },
            })),
          },
        ]).bytes,
    ),
  ];
}

export const arscCampaign: Campaign = {
  name: 'resources.arsc',
  inputs(random) {
    const table = sampleApkPart('resources.arsc');
    return [
      ...asBuiltAndCut('table', table, chunkBoundaries),
      ...hostileArsc(),
      ...mutationsOf('table', table, 250, random),
    ];
  },
  run(bytes) {
    const table = new ResourceTable(bytes);
    return [table.resolve(LABEL), table.resolve(LABEL + 1), table.resolve(0x7f020000)];
  },
  refuses: (error) => error instanceof ResourceFormatError,
};

function protoManifest(): Buffer {
  return xmlNode({
    name: 'manifest',
    attributes: [
      { name: 'versionCode', resourceId: AndroidAttr.versionCode, value: { int: 7 } },
      { name: 'versionName', resourceId: AndroidAttr.versionName, value: { text: '2.0.1' } },
      { name: 'package', value: { text: 'com.example.shop' } },
    ],
    children: [
      {
        name: 'uses-sdk',
        attributes: [{ name: 'minSdkVersion', resourceId: AndroidAttr.minSdkVersion, value: { int: 24 } }],
      },
      { name: 'application', attributes: [{ name: 'label', resourceId: AndroidAttr.label, value: { ref: LABEL } }] },
    ],
  });
}

/** resources.pb: package 0x7f, type 1, entry 0 with a default and a zh value (a reference to entry 1). */
function protoTable(): Buffer {
  const value = (config: Buffer, item: Buffer) => field(6, Buffer.concat([field(1, config), field(2, field(4, item))]));
  const entry = (id: number, values: Buffer[]) => field(3, Buffer.concat([field(1, field(1, id)), ...values]));
  const type = field(
    3,
    Buffer.concat([
      field(1, field(1, 1)),
      entry(0, [
        value(Buffer.alloc(0), field(2, field(1, '商城'))),
        value(field(3, 'zh-CN'), field(1, field(2, LABEL + 1))),
      ]),
      entry(1, [value(Buffer.alloc(0), field(2, field(1, '商城中文')))]),
    ]),
  );
  return field(2, Buffer.concat([field(1, field(1, 0x7f)), type]));
}

function hostileProto(): FuzzInput[] {
  const nested = (depth: number) => {
    let element: ProtoElement = { name: 'leaf' };
    for (let i = 0; i < depth; i += 1) element = { name: 'e', children: [element] };
    return element;
  };
  return [
    input('elements nested 70 deep', () => xmlNode(nested(70))),
    input('elements nested 1,000 deep', () => xmlNode(nested(1000))),
    input('an 11-byte varint', () => Buffer.from([0x08, ...Array.from({ length: 10 }, () => 0xff), 0x01])),
    input('a field claiming 2^35 bytes', () => Buffer.from([0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])),
    input('wire type 3 (groups)', () => Buffer.from([0x0b, 0x0c])),
    input('1,000,000 varint fields', () => Buffer.alloc(2_000_000, 0).fill(Buffer.from([0x08, 0x01]))),
    input('an element with 50,000 children', () =>
      xmlNode({ name: 'manifest', children: Array.from({ length: 50_000 }, () => ({ name: 'x' })) }),
    ),
  ];
}

export const protoManifestCampaign: Campaign = {
  name: 'protobuf manifest (aab)',
  inputs(random) {
    const manifest = protoManifest();
    return [
      ...asBuiltAndCut('manifest', manifest, protobufBoundaries),
      ...hostileProto(),
      ...mutationsOf('manifest', manifest, 250, random),
    ];
  },
  run(bytes) {
    const manifest = parseProtoXml(bytes);
    return manifest ? readManifestModel(manifest) : null;
  },
  refuses: (error) => isOneOf(error, [ProtobufError, PackageInspectionError]),
};

export const protoTableCampaign: Campaign = {
  name: 'resources.pb (aab)',
  inputs(random) {
    const table = protoTable();
    return [
      ...asBuiltAndCut('resources.pb', table, protobufBoundaries),
      ...hostileProto(),
      ...mutationsOf('resources.pb', table, 250, random),
    ];
  },
  run(bytes) {
    const table = new ProtoResourceTable(bytes);
    return [table.resolve(LABEL), table.resolve(LABEL + 1)];
  },
  refuses: (error) => error instanceof ProtobufError,
};
