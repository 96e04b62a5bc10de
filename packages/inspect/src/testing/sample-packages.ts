import { AndroidAttr } from '../axml.ts';
import { buildArsc } from './arsc-writer.ts';
import { buildAxml } from './axml-writer.ts';
import { makeCgbiPng, makePng, patternImage } from './images.ts';
import {
  infoPlist,
  ipaEntries,
  makeProfile,
  profileDict,
  schemeBlockValue,
  signingBlock,
  v1SignatureEntries,
  xmlPlist,
} from './packages.ts';
import { xmlNode } from './proto-writer.ts';
import { makeIdentity, type TestIdentity } from './signing.ts';
import { buildZip, type ZipEntrySpec } from './zip-writer.ts';

/**
 * Small but complete packages for integration, browser and benchmark runs: an ipa with a CgBI icon and
 * a signed ad-hoc profile, and an apk with a resolved label, an icon and a v2 signature.
 */
let identity: TestIdentity | undefined;
function signer(): TestIdentity {
  identity ??= makeIdentity('iPhone Distribution: Example Co., Ltd.', '2a');
  return identity;
}
/** Another key and certificate: an apk signed with it cannot be installed over one signed by `signer()`. */
let otherIdentity: TestIdentity | undefined;
function otherSigner(): TestIdentity {
  otherIdentity ??= makeIdentity('Other Studio Release Key', '3b');
  return otherIdentity;
}

export interface SampleIpaOptions {
  bundleId?: string;
  name?: string;
  version?: string;
  build?: string;
  /** The profile's expiry; by default it is current (see validity.ts). Pass a past date for an expired package. */
  expiresAt?: Date;
  /** Extra files, e.g. to make the package large or give it many entries. */
  extra?: Record<string, Buffer | string>;
  /** Info.plist privacy keys, e.g. `{ NSCameraUsageDescription: '扫码' }`. */
  usageDescriptions?: Record<string, string>;
  minimumOsVersion?: string;
  /** More Info.plist strings, e.g. `{ GitCommit: '<sha>' }` (the build's source commit). */
  info?: Record<string, string>;
}

/** The entries of `sampleIpa()`, for writers that stream their own archive (the benchmarks). */
export function sampleIpaEntries(options: SampleIpaOptions = {}): ZipEntrySpec[] {
  const info = infoPlist({
    CFBundleIdentifier: options.bundleId ?? 'com.example.demo',
    CFBundleDisplayName: options.name ?? '演示应用',
    CFBundleShortVersionString: options.version ?? '1.2.3',
    CFBundleVersion: options.build ?? '45',
    CFBundleIcons: { CFBundlePrimaryIcon: { CFBundleIconFiles: ['AppIcon60x60'] } },
    ...(options.minimumOsVersion ? { MinimumOSVersion: options.minimumOsVersion } : {}),
    ...options.usageDescriptions,
    ...options.info,
  });
  const profile = makeProfile(
    profileDict([signer().der], options.expiresAt ? { ExpirationDate: options.expiresAt } : {}),
    signer(),
  );
  return ipaEntries('Demo', xmlPlist(info), {
    'AppIcon60x60@3x.png': makeCgbiPng(patternImage(180, 180)),
    'embedded.mobileprovision': profile,
    ...options.extra,
  });
}

export function sampleIpa(options: SampleIpaOptions = {}): Buffer {
  return buildZip(sampleIpaEntries(options));
}

export interface SampleApkOptions {
  packageName?: string;
  label?: string;
  versionName?: string;
  versionCode?: number;
  extra?: Record<string, Buffer | string>;
  /** `uses-permission` names, e.g. `android.permission.CAMERA`. */
  permissions?: string[];
  minSdkVersion?: number;
  /** Signed with another certificate (`sampleOtherSignerSha256()`). */
  otherSigner?: boolean;
  /** `<application>` meta-data, e.g. `{ 'git.commit': '<sha>' }` (the build's source commit). */
  metaData?: Record<string, string>;
}

/** An archive's entries and the APK Signing Block written between them and the central directory. */
export interface SampleZipLayout {
  entries: ZipEntrySpec[];
  beforeCentralDirectory: Buffer;
}

/** The entries and signing block of `sampleApk()`, for writers that stream their own archive (the benchmarks). */
export function sampleApkEntries(options: SampleApkOptions = {}): SampleZipLayout {
  const arsc = buildArsc([
    { key: 'string/app_name', values: [{ value: { string: options.label ?? '商城' } }] },
    {
      key: 'mipmap/ic_launcher',
      values: [{ config: { density: 480 }, value: { string: 'res/mipmap-xxhdpi-v4/ic_launcher.png' } }],
    },
  ]);
  const manifest = buildAxml({
    name: 'manifest',
    attributes: [
      { name: 'versionCode', androidId: AndroidAttr.versionCode, value: { int: options.versionCode ?? 7 } },
      { name: 'versionName', androidId: AndroidAttr.versionName, value: options.versionName ?? '2.0.1' },
      { name: 'package', value: options.packageName ?? 'com.example.shop' },
    ],
    children: [
      {
        name: 'uses-sdk',
        attributes: [
          { name: 'minSdkVersion', androidId: AndroidAttr.minSdkVersion, value: { int: options.minSdkVersion ?? 21 } },
          { name: 'targetSdkVersion', androidId: AndroidAttr.targetSdkVersion, value: { int: 34 } },
        ],
      },
      ...(options.permissions ?? []).map((permission) => ({
        name: 'uses-permission',
        attributes: [{ name: 'name', androidId: AndroidAttr.name, value: permission }],
      })),
      {
        name: 'application',
        attributes: [
          { name: 'label', androidId: AndroidAttr.label, value: { ref: arsc.ids['string/app_name'] ?? 0 } },
          { name: 'icon', androidId: AndroidAttr.icon, value: { ref: arsc.ids['mipmap/ic_launcher'] ?? 0 } },
        ],
        children: Object.entries(options.metaData ?? {}).map(([name, value]) => ({
          name: 'meta-data',
          attributes: [
            { name: 'name', androidId: AndroidAttr.name, value: name },
            { name: 'value', androidId: AndroidAttr.value, value },
          ],
        })),
      },
    ],
  });
  const key = options.otherSigner ? otherSigner() : signer();
  const block = signingBlock([[0x7109871a, schemeBlockValue([[key.der]])]]);
  return {
    entries: [
      { name: 'AndroidManifest.xml', data: manifest },
      { name: 'resources.arsc', data: arsc.bytes, method: 'store' },
      { name: 'res/mipmap-xxhdpi-v4/ic_launcher.png', data: makePng(patternImage(144, 144)) },
      { name: 'classes.dex', data: Buffer.alloc(1024, 0x64) },
      ...Object.entries(options.extra ?? {}).map(([name, data]) => ({ name, data })),
    ],
    beforeCentralDirectory: block,
  };
}

export function sampleApk(options: SampleApkOptions = {}): Buffer {
  const { entries, beforeCentralDirectory } = sampleApkEntries(options);
  return buildZip(entries, { beforeCentralDirectory });
}

/** The signer of the sample packages (its certificate's SHA-256, for assertions). */
export function sampleSignerSha256(): string {
  return signer().sha256;
}

/** The certificate of `sampleApk({ otherSigner: true })`. */
export function sampleOtherSignerSha256(): string {
  return otherSigner().sha256;
}

/** An Android App Bundle (protobuf manifest, v1 signer): what Google Play takes, and no phone installs. */
export function sampleAab(options: Omit<SampleApkOptions, 'extra'> = {}): Buffer {
  const manifest = xmlNode({
    name: 'manifest',
    attributes: [
      { name: 'versionCode', resourceId: AndroidAttr.versionCode, value: { int: options.versionCode ?? 7 } },
      { name: 'versionName', resourceId: AndroidAttr.versionName, value: { text: options.versionName ?? '2.0.1' } },
      { name: 'package', value: { text: options.packageName ?? 'com.example.shop' } },
    ],
    children: [
      {
        name: 'uses-sdk',
        attributes: [{ name: 'minSdkVersion', resourceId: AndroidAttr.minSdkVersion, value: { int: 24 } }],
      },
      {
        name: 'application',
        attributes: [{ name: 'label', resourceId: AndroidAttr.label, value: { text: options.label ?? '商城' } }],
      },
    ],
  });
  return buildZip([
    { name: 'base/manifest/AndroidManifest.xml', data: manifest },
    { name: 'base/dex/classes.dex', data: Buffer.alloc(512, 0x64) },
    ...v1SignatureEntries(signer(), [], 'KEY0'),
  ]);
}

/** A zipped macOS app (`Tool.app/Contents/Info.plist`): the Mac platform's package. */
export function sampleMacZip(
  options: { bundleId?: string; name?: string; version?: string; build?: string } = {},
): Buffer {
  const info = xmlPlist({
    CFBundleIdentifier: options.bundleId ?? 'com.example.tool',
    CFBundleName: options.name ?? 'Tool',
    CFBundleShortVersionString: options.version ?? '2.0',
    CFBundleVersion: options.build ?? '200',
    LSMinimumSystemVersion: '12.0',
  });
  return buildZip([
    { name: 'Tool.app/Contents/Info.plist', data: info },
    { name: 'Tool.app/Contents/MacOS/Tool', data: Buffer.alloc(256, 0x7f) },
  ]);
}
