import { ParseError } from '@xmldom/xmldom';
import { readDeviceAnswer } from '../modules/device-enroll/device-answer.ts';
import { PackageInspectionError } from '@release/inspect/inspection-error.ts';
import { inspectMobileprovision } from '@release/inspect/mobileprovision.ts';
import { BinaryPlistError, parseBinaryPlist } from '@release/inspect/plist-binary.ts';
import { PlistLimitError } from '@release/inspect/plist-limits.ts';
import { parseXmlPlist, PlistXmlError } from '@release/inspect/plist-xml.ts';
import { sharedNestingInfoPlist, writeBplist, type BplistObject } from '@release/inspect/testing/bplist-writer.ts';
import { binaryPlist, infoPlist, makeProfile, profileDict, xmlPlist } from '@release/inspect/testing/packages.ts';
import type { SeededRandom } from '@release/inspect/testing/hostile/seeded-random.ts';
import { makeIdentity, signCms, toBerChunked, type TestIdentity } from '@release/inspect/testing/signing.ts';
import { bplistBoundaries, derBoundaries, textBoundaries } from './boundaries.ts';
import { input, isOneOf, type Campaign, type FuzzInput } from './campaign.ts';
import { asBuiltAndCut, MUTATION_SCALE, mutationsOf } from './mutate.ts';

/** Property lists: binary and XML readers, and the two documents built on them (profiles, device answers). */

let identity: TestIdentity | undefined;
/** One signer for every signed sample of the run (fresh keys each run; the layout, and so every cut point, is the same). */
export function fuzzSigner(): TestIdentity {
  identity ??= makeIdentity('iPhone Distribution: Fuzz Co., Ltd.', '2b');
  return identity;
}

const FIELDS = { CFBundleIdentifier: 'com.example.fuzz', CFBundleShortVersionString: '1.0', CFBundleVersion: '1' };

/** An array nested `depth` deep, each level its own object. */
function nestedArrays(depth: number): Buffer {
  const objects: BplistObject[] = Array.from({ length: depth }, (_, i) => ({ array: [i + 1] }));
  objects.push({ bool: true });
  return writeBplist(objects);
}

/** A container that holds itself (directly, or through a second one). */
function cycle(length: 1 | 2): Buffer {
  return writeBplist(length === 1 ? [{ array: [0] }] : [{ dict: [[1, 2]] }, { string: 'k' }, { array: [0] }]);
}

/** A marker announcing `count` items (4-byte count) with nothing behind it. */
function lyingCount(type: number, count: number): Buffer {
  const raw = Buffer.alloc(6);
  raw[0] = (type << 4) | 0x0f;
  raw[1] = 0x12;
  raw.writeUInt32BE(count, 2);
  return writeBplist([{ raw }]);
}

/** `sample` with one trailer field replaced (offset size, reference size, object count, top object, table offset). */
function lyingTrailer(
  sample: Buffer,
  field: 'offsetSize' | 'refSize' | 'count' | 'top' | 'table',
  value: number,
): Buffer {
  const bytes = Buffer.from(sample);
  const trailer = bytes.length - 32;
  if (field === 'offsetSize') bytes[trailer + 6] = value;
  else if (field === 'refSize') bytes[trailer + 7] = value;
  else bytes.writeBigUInt64BE(BigInt(value), trailer + { count: 8, top: 16, table: 24 }[field]);
  return bytes;
}

/** Hostile binary plists: deep, cyclic, shared, lying about counts, sizes and offsets. */
function hostileBinary(sample: Buffer): FuzzInput[] {
  const trailerLies = (['offsetSize', 'refSize', 'count', 'top', 'table'] as const).flatMap((field) =>
    [0, 3, 9, 0xff, 0xffff, 2 ** 32 - 1, 2 ** 53 - 1].map((value) =>
      input(`trailer ${field}=${value}`, () => lyingTrailer(sample, field, value)),
    ),
  );
  return [
    input('arrays nested 200 deep', () => nestedArrays(200)),
    input('arrays nested 100,000 deep', () => nestedArrays(100_000)),
    input('one array shared 40 levels deep (2^40 values)', () => sharedNestingInfoPlist(40, FIELDS)),
    input('one array shared 64 levels deep', () => sharedNestingInfoPlist(64, FIELDS)),
    input('an array holding itself', () => cycle(1)),
    input('a dict and an array holding each other', () => cycle(2)),
    input('an array claiming 2^32-1 items', () => lyingCount(0xa, 0xffffffff)),
    input('a dict claiming 2^31 items', () => lyingCount(0xd, 0x80000000)),
    input('a string claiming 2^32-1 bytes', () => lyingCount(0x5, 0xffffffff)),
    input('a UTF-16 string claiming 2^31 characters', () => lyingCount(0x6, 0x80000000)),
    input('data claiming 16 MiB + 1', () => lyingCount(0x4, 16 * 1024 * 1024 + 1)),
    input('an array of 200,000 references to one value', () =>
      writeBplist([{ array: Array.from({ length: 200_000 }, () => 1) }, { bool: true }]),
    ),
    ...trailerLies,
  ];
}

/** XML plists: deep, wide, entity-expanding, forcing the DOM reader, unterminated. */
function hostileXml(): FuzzInput[] {
  const doc = (body: string, head = '') =>
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${head}<plist version="1.0">${body}</plist>\n`);
  const laughs = `<!DOCTYPE plist [<!ENTITY a "${'x'.repeat(100)}">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]>`;
  return [
    input('arrays nested 200 deep', () => doc(`${'<array>'.repeat(200)}${'</array>'.repeat(200)}`)),
    input('arrays nested 300,000 deep', () => doc(`${'<array>'.repeat(300_000)}${'</array>'.repeat(300_000)}`)),
    input('dicts nested 100,000 deep', () =>
      doc(`${'<dict><key>k</key>'.repeat(100_000)}<true/>${'</dict>'.repeat(100_000)}`),
    ),
    input('arrays nested 100,000 deep with CDATA (the DOM reader)', () =>
      doc(`${'<array>'.repeat(100_000)}<string><![CDATA[x]]></string>${'</array>'.repeat(100_000)}`),
    ),
    input('300,000 values in one array', () => doc(`<array>${'<true/>'.repeat(300_000)}</array>`)),
    input('100,000 elements with attributes (the DOM reader)', () =>
      doc(`<array>${'<true a="1"/>'.repeat(100_000)}</array>`),
    ),
    input('entities expanding to 10^11 characters', () => doc('<dict><key>k</key><string>&j;</string></dict>', laughs)),
    input('a string of 16 MiB + 1 characters', () =>
      doc(`<dict><key>k</key><string>${'a'.repeat(16 * 1024 * 1024 + 1)}</string></dict>`),
    ),
    input('100,000 unclosed arrays', () => doc('<array>'.repeat(100_000))),
    input('100,000 stray closing tags', () => doc(`<array></array>${'</dict>'.repeat(100_000)}`)),
    input('a dict of 200,000 keys without values', () => doc(`<dict>${'<key>k</key>'.repeat(200_000)}</dict>`)),
  ];
}

/**
 * Random object graphs written object by object: references anywhere (forward, backward, to themselves, past the
 * end), containers sharing children, raw markers with random counts. Seeded like the mutations.
 */
function randomGraphs(random: SeededRandom, count: number): FuzzInput[] {
  return Array.from({ length: count }, (_, index) => {
    const size = 1 + random.int(40);
    const ref = () => random.int(size + 2);
    const objects: BplistObject[] = Array.from({ length: size }, (): BplistObject => {
      switch (random.int(7)) {
        case 0:
          return { string: random.bytes(random.int(20)).toString('latin1') };
        case 1:
          return { int: random.int(2 ** 31) };
        case 2:
          return { data: random.bytes(random.int(16)) };
        case 3:
          return { array: Array.from({ length: random.int(6) }, ref) };
        case 4:
          return { dict: Array.from({ length: random.int(6) }, (): [number, number] => [ref(), ref()]) };
        case 5:
          return { raw: Buffer.concat([Buffer.from([random.int(256)]), random.bytes(random.int(9))]) };
        default:
          return { bool: random.int(2) === 1 };
      }
    });
    const top = random.int(size);
    return input(`random graph #${index} (${size} objects, top ${top})`, () => writeBplist(objects, top));
  });
}

const BINARY_SAMPLES = () => ({
  'Info.plist': binaryPlist(infoPlist()),
  profile: binaryPlist(profileDict([fuzzSigner().der])),
});
const XML_SAMPLES = () => ({ 'Info.plist': xmlPlist(infoPlist()), profile: xmlPlist(profileDict([fuzzSigner().der])) });

export const binaryPlistCampaign: Campaign = {
  name: 'binary plist',
  inputs(random) {
    const samples = Object.entries(BINARY_SAMPLES());
    return [
      ...samples.flatMap(([name, bytes]) => asBuiltAndCut(name, bytes, bplistBoundaries)),
      ...hostileBinary(samples[0]?.[1] as Buffer),
      ...randomGraphs(random, 150 * MUTATION_SCALE),
      ...samples.flatMap(([name, bytes]) => mutationsOf(name, bytes, 120, random)),
    ];
  },
  run: (bytes) => parseBinaryPlist(bytes),
  refuses: (error) => isOneOf(error, [BinaryPlistError, PlistLimitError]),
};

export const xmlPlistCampaign: Campaign = {
  name: 'XML plist',
  inputs(random) {
    const samples = Object.entries(XML_SAMPLES());
    return [
      ...samples.flatMap(([name, bytes]) => asBuiltAndCut(name, bytes, (xml) => textBoundaries(xml, '<>'))),
      ...hostileXml(),
      ...samples.flatMap(([name, bytes]) => mutationsOf(name, bytes, 120, random)),
    ];
  },
  run: (bytes) => parseXmlPlist(bytes.toString('utf8')),
  refuses: (error) => isOneOf(error, [PlistXmlError, PlistLimitError, ParseError]),
};

/** The small hostile plists above (signing megabytes in forge is slow), each signed as the content of a CMS message. */
function signedHostilePlists(): FuzzInput[] {
  const small = /200 deep|shared|holding|claiming|entities|stray/;
  return [...hostileBinary(binaryPlist(infoPlist())), ...hostileXml()]
    .filter((item) => small.test(item.label))
    .map((item) => input(`signed ${item.label}`, () => signCms(item.bytes(), fuzzSigner())));
}

export const mobileprovisionCampaign: Campaign = {
  name: 'mobileprovision',
  inputs(random) {
    const signed = makeProfile(profileDict([fuzzSigner().der]), fuzzSigner());
    const ber = toBerChunked(signed);
    return [
      ...asBuiltAndCut('profile', signed, derBoundaries),
      ...asBuiltAndCut('BER profile', ber, derBoundaries),
      ...signedHostilePlists(),
      ...mutationsOf('profile', signed, 120, random),
      ...mutationsOf('BER profile', ber, 60, random),
    ];
  },
  run: (bytes) => inspectMobileprovision(bytes),
  refuses: (error) => error instanceof PackageInspectionError,
};

export const deviceAnswerCampaign: Campaign = {
  name: 'device answer',
  inputs(random) {
    const answer = signCms(
      xmlPlist({
        UDID: '00008110-000A1B2C3D4E5F99',
        CHALLENGE: 'c'.repeat(32),
        PRODUCT: 'iPhone14,2',
        VERSION: '21A329',
        SERIAL: 'F2LXXXXXXX',
      }),
      fuzzSigner(),
    );
    return [
      ...asBuiltAndCut('answer', answer, derBoundaries),
      ...signedHostilePlists(),
      ...mutationsOf('answer', answer, 150, random),
    ];
  },
  // Any fault is answered as unreadable (null); nothing may be thrown.
  run: (bytes) => readDeviceAnswer(bytes),
  refuses: () => false,
};
