import { build, buildBinary, type PlistValue } from 'plist';
import { signCms, type TestIdentity } from './signing.ts';
import { currentValidity } from './validity.ts';
import type { ZipEntrySpec } from './zip-writer.ts';

/** Builders of realistic package contents: Info.plist, provisioning profiles, APK signing blocks. */
export type Dict = { [key: string]: PlistValue };

export function xmlPlist(value: Dict): Buffer {
  return Buffer.from(build(value), 'utf8');
}

export function binaryPlist(value: Dict): Buffer {
  return Buffer.from(buildBinary(value));
}

export function infoPlist(overrides: Dict = {}): Dict {
  return {
    CFBundleIdentifier: 'com.example.demo',
    CFBundleDisplayName: '演示应用',
    CFBundleName: 'Demo',
    CFBundleExecutable: 'Demo',
    CFBundleShortVersionString: '1.2.3',
    CFBundleVersion: '45',
    MinimumOSVersion: '13.0',
    UIDeviceFamily: [1, 2],
    CFBundleSupportedPlatforms: ['iPhoneOS'],
    ...overrides,
  };
}

/** A current ad-hoc profile (see validity.ts); an expired one takes its `ExpirationDate` as an override. */
export function profileDict(developerCertificates: Buffer[], overrides: Dict = {}): Dict {
  const validity = currentValidity();
  return {
    Name: 'Demo Ad Hoc',
    UUID: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
    AppIDName: 'Demo',
    TeamIdentifier: ['TEAM123456'],
    TeamName: 'Example Co., Ltd.',
    Platform: ['iOS'],
    CreationDate: validity.from,
    ExpirationDate: validity.to,
    ProvisionedDevices: ['00008030-001A2B3C4D5E6F70', '00008101-000A1B2C3D4E5F60'],
    Entitlements: { 'application-identifier': 'TEAM123456.com.example.demo', 'get-task-allow': false },
    DeveloperCertificates: developerCertificates.map((der) => new Uint8Array(der)),
    ...overrides,
  };
}

/** A signed `.mobileprovision`: CMS SignedData wrapping the XML plist. */
export function makeProfile(dict: Dict, signer: TestIdentity): Buffer {
  return signCms(xmlPlist(dict), signer);
}

/** Entries of an .ipa whose main bundle is `Payload/<app>.app/`. */
export function ipaEntries(app: string, info: Buffer, extra: Record<string, Buffer | string> = {}): ZipEntrySpec[] {
  const root = `Payload/${app}.app/`;
  return [
    { name: 'Payload/' },
    { name: root },
    { name: `${root}Info.plist`, data: info },
    { name: `${root}Demo`, data: Buffer.alloc(256, 0xcf) },
    ...Object.entries(extra).map(([name, data]) => ({ name: `${root}${name}`, data })),
  ];
}

function prefixed(...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length);
  return Buffer.concat([length, body]);
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}

/** A v2 (or v3) scheme block value with one signer per certificate chain. */
export function schemeBlockValue(signers: Buffer[][], v3 = false): Buffer {
  const encoded = signers.map((chain) => {
    const digests = prefixed(prefixed(u32(0x0103), prefixed(Buffer.alloc(32, 7))));
    const certificates = prefixed(...chain.map((der) => prefixed(der)));
    const sdk = v3 ? Buffer.concat([u32(24), u32(0x7fffffff)]) : Buffer.alloc(0);
    const signedData = prefixed(digests, certificates, sdk, prefixed());
    const signatures = prefixed(prefixed(u32(0x0103), prefixed(Buffer.alloc(256, 1))));
    return prefixed(signedData, sdk, signatures, prefixed(Buffer.alloc(16, 2)));
  });
  return prefixed(...encoded);
}

/** An APK Signing Block: `size | (len id value)* | size | "APK Sig Block 42"`. */
export function signingBlock(pairs: [number, Buffer][]): Buffer {
  const body = Buffer.concat(
    pairs.map(([id, value]) => {
      const head = Buffer.alloc(12);
      head.writeBigUInt64LE(BigInt(value.length + 4), 0);
      head.writeUInt32LE(id, 8);
      return Buffer.concat([head, value]);
    }),
  );
  const size = BigInt(body.length + 24);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(size);
  const tail = Buffer.alloc(8);
  tail.writeBigUInt64LE(size);
  return Buffer.concat([head, body, tail, Buffer.from('APK Sig Block 42', 'latin1')]);
}

/** v1 (JAR) signature files for one signer; `extra` certificates ride along in the PKCS#7 like a CA chain. */
export function v1SignatureEntries(signer: TestIdentity, extra: TestIdentity[] = [], file = 'CERT'): ZipEntrySpec[] {
  const signatureFile = Buffer.from('Signature-Version: 1.0\r\nCreated-By: test\r\n\r\n');
  return [
    { name: 'META-INF/MANIFEST.MF', data: 'Manifest-Version: 1.0\r\n\r\n' },
    { name: `META-INF/${file}.SF`, data: signatureFile },
    {
      name: `META-INF/${file}.RSA`,
      data: signCms(signatureFile, signer, { detached: true, extraCertificates: extra }),
    },
  ];
}
