import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { convertCgbiToPng, isCgbiPng, PngError } from '@release/inspect/cgbi-png.ts';
import { composeAdaptiveIcon, toStorableIcon } from '@release/inspect/icon-image.ts';
import { PackageInspectionError } from '@release/inspect/inspection-error.ts';
import { inspectPackage } from '@release/inspect/package-inspector.ts';
import { buildArsc } from '@release/inspect/testing/arsc-writer.ts';
import { buildAxml } from '@release/inspect/testing/axml-writer.ts';
import { deepXmlIpa, heavyInfoPlistIpa, sharedNestingIpa } from '@release/inspect/testing/hostile/attacks.ts';
import { makeCgbiPng, makePng, patternImage } from '@release/inspect/testing/images.ts';
import { schemeBlockValue, signingBlock } from '@release/inspect/testing/packages.ts';
import { field, xmlNode } from '@release/inspect/testing/proto-writer.ts';
import {
  sampleAab,
  sampleApk,
  sampleApkEntries,
  sampleIpa,
  sampleIpaEntries,
  sampleMacZip,
} from '@release/inspect/testing/sample-packages.ts';
import { buildZip, type ZipEntrySpec } from '@release/inspect/testing/zip-writer.ts';
import { pngBoundaries, zipBoundaries } from './boundaries.ts';
import type { SeededRandom } from '@release/inspect/testing/hostile/seeded-random.ts';
import { input, type Campaign, type FuzzInput } from './campaign.ts';
import { asBuiltAndCut, mutate, MUTATION_SCALE, mutationsOf, truncationsOf } from './mutate.ts';

/** Whole packages through inspectPackage (zip, then each kind's readers), and icons through the icon readers. */

/** The end-of-central-directory record of `zip` with one field replaced (entries on disk +8, total +10, size +12, offset +16). */
function lyingEnd(zip: Buffer, offset: 8 | 10 | 12 | 16, value: number): Buffer {
  const bytes = Buffer.from(zip);
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (offset === 8 || offset === 10) bytes.writeUInt16LE(value & 0xffff, end + offset);
  else bytes.writeUInt32LE(value >>> 0, end + offset);
  return bytes;
}

/** `zip` whose end record points at a zip64 record claiming `entries` entries and a `size`-byte central directory. */
function lyingZip64(zip: Buffer, entries: bigint, size: bigint): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeBigUInt64LE(entries, 24);
  record.writeBigUInt64LE(entries, 32);
  record.writeBigUInt64LE(size, 40);
  record.writeBigUInt64LE(BigInt(zip.readUInt32LE(end + 16)), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(end), 8);
  locator.writeUInt32LE(1, 16);
  const tail = Buffer.from(zip.subarray(end));
  tail.writeUInt16LE(0xffff, 8);
  tail.writeUInt16LE(0xffff, 10);
  tail.writeUInt32LE(0xffffffff, 12);
  tail.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([zip.subarray(0, end), record, locator, tail]);
}

function apkWith(parts: { manifest?: Buffer; arsc?: Buffer; block?: Buffer }): Buffer {
  const { entries, beforeCentralDirectory } = sampleApkEntries();
  const replaced = entries.map((entry) =>
    entry.name === 'AndroidManifest.xml' && parts.manifest
      ? { ...entry, data: parts.manifest }
      : entry.name === 'resources.arsc' && parts.arsc
        ? { ...entry, data: parts.arsc }
        : entry,
  );
  return buildZip(replaced, { beforeCentralDirectory: parts.block ?? beforeCentralDirectory });
}

/** Hostile packages (also uploaded over HTTP by test/fuzz-uploads.test.ts). */
export function hostilePackages(ipa: Buffer): FuzzInput[] {
  const languages = Array.from({ length: 64 }, (_, i) => String.fromCharCode(0x61 + (i >> 3), 0x61 + (i & 7)));
  let deep = { name: 'leaf' } as { name: string; children?: unknown[] };
  for (let i = 0; i < 1000; i += 1) deep = { name: 'e', children: [deep] };
  const der = Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]);
  const lyingBlock = Buffer.from(signingBlock([[0x7109871a, schemeBlockValue([[der]])]]));
  lyingBlock.writeBigUInt64LE(2n ** 40n, 0);
  return [
    input('ipa: binary Info.plist sharing one array 30 levels deep', () => sharedNestingIpa(30)),
    input('ipa: XML Info.plist nested 300,000 deep', () => deepXmlIpa(300_000)),
    input('ipa: Info.plist of 50,000 keys', () => heavyInfoPlistIpa(50_000)),
    input('ipa: Info.plist of 60 MB of zeros, deflated', () =>
      buildZip([
        { name: 'Payload/' },
        { name: 'Payload/A.app/' },
        { name: 'Payload/A.app/Info.plist', data: Buffer.alloc(60 * 1024 * 1024) },
      ]),
    ),
    input('ipa: Info.plist declared 4 GiB', () =>
      buildZip([{ name: 'Payload/A.app/Info.plist', data: 'x', declaredUncompressedSize: 0xffffffff }]),
    ),
    input('ipa: 65,000 entries', () =>
      buildZip([
        { name: 'Payload/A.app/Info.plist', data: 'x' },
        ...Array.from({ length: 65_000 }, (_, i) => ({ name: `Payload/A.app/f${i}` })),
      ]),
    ),
    input('ipa: 20 entries sharing one local header', () =>
      buildZip([
        { name: 'Payload/A.app/Info.plist', data: Buffer.alloc(4096, 0x20) },
        ...Array.from({ length: 20 }, (_, i) => ({ name: `Payload/A.app/o${i}`, sameLocalHeaderAs: 0 })),
      ]),
    ),
    ...[0, 0xffff].map((value) => input(`ipa: end record claims ${value} entries`, () => lyingEnd(ipa, 10, value))),
    ...[0xffffffff, 0x7fffffff].flatMap((value) => [
      input(`ipa: central directory size ${value}`, () => lyingEnd(ipa, 12, value)),
      input(`ipa: central directory at ${value}`, () => lyingEnd(ipa, 16, value)),
    ]),
    input('ipa: zip64 record claiming 2^40 entries', () => lyingZip64(ipa, 2n ** 40n, 2n ** 40n)),
    input('ipa: zip64 record claiming 2 entries in 2^62 bytes', () => lyingZip64(ipa, 2n, 2n ** 62n)),
    input('apk: manifest nested 1,000 deep', () =>
      apkWith({ manifest: buildAxml(deep as Parameters<typeof buildAxml>[0]) }),
    ),
    input('apk: label through 64 self-referring configurations', () =>
      apkWith({
        arsc: buildArsc([
          {
            key: 'string/app_name',
            values: languages.map((language) => ({ config: { language }, value: { ref: 'string/app_name' } })),
          },
        ]).bytes,
      }),
    ),
    input('apk: 1,000 signers', () =>
      apkWith({ block: signingBlock([[0x7109871a, schemeBlockValue(Array.from({ length: 1000 }, () => [der]))]]) }),
    ),
    input('apk: signing block claiming 2^40 bytes', () => apkWith({ block: lyingBlock })),
    input('aab: manifest nested 1,000 deep', () => {
      let node = field(1, field(3, 'leaf'));
      for (let i = 0; i < 1000; i += 1) node = field(1, Buffer.concat([field(3, 'e'), field(5, node)]));
      return buildZip([{ name: 'base/manifest/AndroidManifest.xml', data: node }]);
    }),
    input('aab: manifest of 11-byte varints', () =>
      buildZip([
        {
          name: 'base/manifest/AndroidManifest.xml',
          data: Buffer.from([0x08, ...Array.from({ length: 10 }, () => 0xff), 0x01]),
        },
      ]),
    ),
    input('aab: resources.pb claiming 2^35 bytes', () =>
      buildZip([
        { name: 'base/manifest/AndroidManifest.xml', data: xmlNode({ name: 'manifest' }) },
        { name: 'base/resources.pb', data: Buffer.from([0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]) },
      ]),
    ),
  ];
}

/**
 * The package rebuilt with one entry (or the APK Signing Block) mutated, so the mutation gets past the zip's CRC
 * checks to the readers behind it: Info.plist, profile and icon of an ipa; manifest, resources, icon and signatures of an apk.
 */
function innerMutations(random: SeededRandom): FuzzInput[] {
  const ipa = sampleIpaEntries();
  const apk = sampleApkEntries();
  const mutated = (kind: string, entries: ZipEntrySpec[], name: string, count: number, block?: Buffer) =>
    Array.from({ length: count * MUTATION_SCALE }, (_, index) => {
      const entry = entries.find((item) => item.name.endsWith(name));
      const { bytes, edits } = mutate(Buffer.from(entry?.data ?? ''), random);
      const replaced = entries.map((item) => (item === entry ? { ...item, data: bytes } : item));
      return input(`${kind} with ${name} mutated #${index}: ${edits}`, () =>
        buildZip(replaced, { beforeCentralDirectory: block }),
      );
    });
  const blockMutations = Array.from({ length: 60 * MUTATION_SCALE }, (_, index) => {
    const { bytes, edits } = mutate(apk.beforeCentralDirectory, random);
    return input(`apk with its signing block mutated #${index}: ${edits}`, () =>
      buildZip(apk.entries, { beforeCentralDirectory: bytes }),
    );
  });
  return [
    ...mutated('ipa', ipa, 'Info.plist', 50),
    ...mutated('ipa', ipa, 'embedded.mobileprovision', 50),
    ...mutated('ipa', ipa, 'AppIcon60x60@3x.png', 40),
    ...mutated('apk', apk.entries, 'AndroidManifest.xml', 50, apk.beforeCentralDirectory),
    ...mutated('apk', apk.entries, 'resources.arsc', 50, apk.beforeCentralDirectory),
    ...mutated('apk', apk.entries, 'ic_launcher.png', 30, apk.beforeCentralDirectory),
    ...blockMutations,
  ];
}

export const packageCampaign: Campaign = {
  name: 'zip / ipa / apk / aab',
  inputs(random) {
    const samples = {
      ipa: sampleIpa(),
      apk: sampleApk(),
      aab: sampleAab(),
      'mac zip': sampleMacZip(),
      'web zip': buildZip([{ name: 'dist/index.html', data: '<html><title>站点</title></html>' }]),
    };
    return [
      ...Object.entries(samples).flatMap(([name, bytes]) => asBuiltAndCut(name, bytes, zipBoundaries)),
      ...hostilePackages(samples.ipa),
      ...Object.entries(samples).flatMap(([name, bytes]) =>
        mutationsOf(name, bytes, name.endsWith('zip') ? 30 : 60, random),
      ),
      ...innerMutations(random),
    ];
  },
  async run(bytes, { tempDir }) {
    const file = path.join(tempDir, 'package');
    writeFileSync(file, bytes);
    return inspectPackage(file);
  },
  refuses: (error) => error instanceof PackageInspectionError,
};

function hostileImages(): FuzzInput[] {
  const small = patternImage(8, 8);
  const withSize = (png: Buffer, width: number, height: number) => {
    const bytes = Buffer.from(png);
    const ihdr = bytes.indexOf('IHDR');
    bytes.writeUInt32BE(width, ihdr + 4);
    bytes.writeUInt32BE(height, ihdr + 8);
    return bytes;
  };
  return [
    input('CgBI claiming 100,000 × 100,000 pixels', () => withSize(makeCgbiPng(small), 100_000, 100_000)),
    input('CgBI 4096 × 4096 whose IDAT inflates past its scanlines', () =>
      withSize(makeCgbiPng(small, deflateRawSync(Buffer.alloc(80 * 1024 * 1024))), 4096, 4096),
    ),
    input('CgBI 4096 × 4096 with 8 pixels of data', () => withSize(makeCgbiPng(small), 4096, 4096)),
    input('PNG claiming 100,000 × 100,000 pixels', () => withSize(makePng(small), 100_000, 100_000)),
    input('CgBI with a chunk claiming 4 GiB', () => {
      const bytes = makeCgbiPng(small);
      bytes.writeUInt32BE(0xffffffff, bytes.indexOf('IDAT') - 4);
      return bytes;
    }),
    input('CgBI with 100,000 empty chunks before its data', () => {
      const png = makeCgbiPng(small);
      const at = png.indexOf('IDAT') - 4;
      const empty = Buffer.from([0, 0, 0, 0, 0x74, 0x45, 0x58, 0x74, 0, 0, 0, 0]);
      return Buffer.concat([png.subarray(0, at), ...Array.from({ length: 100_000 }, () => empty), png.subarray(at)]);
    }),
  ];
}

export const iconCampaign: Campaign = {
  name: 'icons (CgBI / PNG / WebP)',
  async inputs(random) {
    const sharp = (await import('sharp')).default;
    const cgbi = makeCgbiPng(patternImage(60, 60));
    const png = makePng(patternImage(48, 48));
    const webp = await sharp(png).webp().toBuffer();
    return [
      ...asBuiltAndCut('CgBI', cgbi, pngBoundaries),
      ...truncationsOf('PNG', png, pngBoundaries(png)),
      ...hostileImages(),
      ...mutationsOf('CgBI', cgbi, 150, random),
      ...mutationsOf('PNG', png, 60, random),
      ...mutationsOf('WebP', webp, 60, random),
    ];
  },
  async run(bytes) {
    const stored = await toStorableIcon(bytes, 'AppIcon60x60@3x.png');
    // Adaptive layers are plain PNG or WebP (sharp cannot read CgBI at all).
    const adaptive = isCgbiPng(bytes)
      ? null
      : await composeAdaptiveIcon({ bytes, path: 'ic_launcher_foreground.png' }, { color: 0xff336699 });
    // toStorableIcon answers null for what it cannot read; the converter itself must refuse with its own error.
    if (isCgbiPng(bytes)) convertCgbiToPng(bytes);
    return [stored, adaptive];
  },
  refuses: (error) => error instanceof PngError,
};
