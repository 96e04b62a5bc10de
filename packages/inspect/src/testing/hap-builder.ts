import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { makePng, patternImage } from './images.ts';
import { signCms, type TestIdentity } from './signing.ts';
import { currentValidity } from './validity.ts';
import {
  buildResourcesIndex,
  buildResourcesIndexV2,
  RES_TYPE,
  type ResourceConfigSpec,
  type ResourceSpec,
} from './resources-writer.ts';
import { buildZip, type ZipEntrySpec } from './zip-writer.ts';

export { buildResourcesIndex, buildResourcesIndexV2, RES_TYPE, type ResourceConfigSpec, type ResourceSpec };

/**
 * Small HarmonyOS module files for tests, laid out as DevEco Studio builds them (docs/harmonyos.md): module.json,
 * pack.info, a restool `resources.index`, layered icon layers, and a HAP signing block before the central
 * directory holding a PKCS#7 signature (signer + CA chain) and a PKCS#7-signed profile.
 */

/** A certificate for `commonName` issued by `issuer` (self-signed without one), RSA, current by default. */
export function makeIssuedIdentity(
  commonName: string,
  options: { issuer?: TestIdentity; serial?: string; notBefore?: Date; notAfter?: Date; organization?: string } = {},
): TestIdentity {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = options.serial ?? '0a';
  const validity = currentValidity();
  certificate.validity.notBefore = options.notBefore ?? validity.from;
  certificate.validity.notAfter = options.notAfter ?? validity.to;
  const utf8 = (value: string) => ({ value, valueTagClass: forge.asn1.Type.UTF8 });
  certificate.setSubject([
    { name: 'countryName', value: 'CN' },
    { name: 'organizationName', ...utf8(options.organization ?? 'Example') },
    { name: 'commonName', ...utf8(commonName) },
  ] as forge.pki.CertificateField[]);
  certificate.setIssuer((options.issuer?.certificate ?? certificate).subject.attributes);
  certificate.sign(options.issuer?.key ?? key, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
  return { certificate, key, der, sha256: createHash('sha256').update(der).digest('hex') };
}

export interface HarmonySigningIdentities {
  root: TestIdentity;
  ca: TestIdentity;
  developer: TestIdentity;
  profileSigner: TestIdentity;
}

let identities: HarmonySigningIdentities | undefined;
/** A root, a developer CA under it, a developer certificate under that, and a profile signer (made once per process). */
export function harmonyIdentities(): HarmonySigningIdentities {
  if (!identities) {
    const root = makeIssuedIdentity('Test CBG Root CA G2', { serial: '01' });
    const ca = makeIssuedIdentity('Test CBG Developer Relations CA G2', { issuer: root, serial: '02' });
    const developer = makeIssuedIdentity('示例科技有限公司(1234567890),Release', {
      issuer: ca,
      serial: '03',
      organization: '示例科技有限公司',
    });
    const profileSigner = makeIssuedIdentity('Test Profile Management', { issuer: root, serial: '04' });
    identities = { root, ca, developer, profileSigner };
  }
  return identities;
}

export interface HapProfileOptions {
  type?: 'debug' | 'release';
  distributionType?: string;
  devices?: string[];
  bundleName?: string;
  notBefore?: Date;
  notAfter?: Date;
}

export function hapProfileJson(developer: TestIdentity, options: HapProfileOptions = {}): Record<string, unknown> {
  const validity = currentValidity();
  const certificateKey = options.type === 'debug' ? 'development-certificate' : 'distribution-certificate';
  return {
    'version-name': '2.0.0',
    'version-code': 2,
    'app-distribution-type': options.distributionType ?? (options.type === 'debug' ? 'none' : 'enterprise'),
    uuid: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
    validity: {
      'not-before': Math.floor((options.notBefore ?? validity.from).getTime() / 1000),
      'not-after': Math.floor((options.notAfter ?? validity.to).getTime() / 1000),
    },
    type: options.type ?? 'release',
    'bundle-info': {
      'developer-id': '1234567890',
      [certificateKey]: forge.pki.certificateToPem(developer.certificate),
      'bundle-name': options.bundleName ?? 'com.example.harmony',
      apl: 'normal',
      'app-feature': 'hos_normal_app',
      'app-identifier': '6917000000000000001',
    },
    ...(options.devices ? { 'debug-info': { 'device-ids': options.devices, 'device-id-type': 'udid' } } : {}),
    issuer: 'app_gallery',
  };
}

/** The sign block: a table of (type, length, offset) triples, the values, the 32-byte footer with `<hap sign block>`. */
export function hapSigningBlock(values: [number, Buffer][]): Buffer {
  const tableBytes = values.length * 12;
  const table = Buffer.alloc(tableBytes);
  let offset = tableBytes;
  values.forEach(([type, value], index) => {
    table.writeUInt32LE(type, index * 12);
    table.writeUInt32LE(value.length, index * 12 + 4);
    table.writeUInt32LE(offset, index * 12 + 8);
    offset += value.length;
  });
  const footer = Buffer.alloc(32);
  footer.writeUInt32LE(values.length, 0);
  footer.writeBigUInt64LE(BigInt(offset + 32), 4);
  footer.write('<hap sign block>', 12, 'latin1');
  footer.writeUInt32LE(3, 28);
  return Buffer.concat([table, ...values.map(([, value]) => value), footer]);
}

export interface SampleHapOptions {
  bundleName?: string;
  versionName?: string;
  versionCode?: number;
  moduleName?: string;
  moduleType?: 'entry' | 'feature' | 'shared';
  dependencies?: string[];
  deviceTypes?: string[];
  /** module.json `requestPermissions[].name`. */
  permissions?: string[];
  /** Native libraries: `libs/<abi>/<name>` → size in bytes. */
  nativeLibs?: Record<string, number>;
  /** The default label and a zh_CN one (null leaves it out). */
  label?: string;
  zhLabel?: string | null;
  /** A layered icon (foreground over background) or one media PNG. */
  icon?: 'layered' | 'plain' | 'none';
  debug?: boolean;
  minApiVersion?: number;
  /** null: an unsigned module. */
  profile?: HapProfileOptions | null;
  /** The resources.index layout: `v1` (Restool 5, the fixture's) by default, or `RestoolV2`. */
  resources?: 'v1' | 'v2';
  /** Replace or add entries (a broken module.json, a hostile resources.index). */
  extra?: Record<string, Buffer | string>;
}

const LABEL_ID = 0x01000000;
const ICON_ID = 0x01000003;
const BACKGROUND_ID = 0x01000001;
const FOREGROUND_ID = 0x01000002;

export function sampleHapEntries(options: SampleHapOptions = {}): ZipEntrySpec[] {
  const moduleName = options.moduleName ?? 'entry';
  const moduleType = options.moduleType ?? 'entry';
  const icon = options.icon ?? 'layered';
  const debug = options.debug ?? false;
  const app = {
    bundleName: options.bundleName ?? 'com.example.harmony',
    bundleType: 'app',
    versionCode: options.versionCode ?? 1000001,
    versionName: options.versionName ?? '1.0.1',
    vendor: 'example',
    minAPIVersion: options.minApiVersion ?? 50005017,
    targetAPIVersion: 50005017,
    compileSdkVersion: '5.0.5.165',
    compileSdkType: 'HarmonyOS',
    apiReleaseType: 'Release',
    debug,
    buildMode: debug ? 'debug' : 'release',
    label: '$string:app_name',
    labelId: LABEL_ID,
    ...(icon === 'none'
      ? {}
      : { icon: icon === 'layered' ? '$media:layered_image' : '$media:app_icon', iconId: ICON_ID }),
  };
  const module = {
    name: moduleName,
    type: moduleType,
    deviceTypes: options.deviceTypes ?? ['phone', 'tablet'],
    dependencies: (options.dependencies ?? []).map((name) => ({ moduleName: name, versionCode: app.versionCode })),
    ...(moduleType === 'shared' ? {} : { mainElement: 'EntryAbility' }),
    ...(options.permissions ? { requestPermissions: options.permissions.map((name) => ({ name })) } : {}),
  };
  const media = (id: number, name: string, file: string): ResourceSpec => ({
    id,
    type: RES_TYPE.media,
    name,
    value: `${moduleName}/resources/base/media/${file}`,
  });
  const base: ResourceSpec[] = [
    { id: LABEL_ID, type: RES_TYPE.string, name: 'app_name', value: options.label ?? '鸿蒙演示' },
  ];
  const files: Record<string, Buffer | string> = {};
  for (const [name, bytes] of Object.entries(options.nativeLibs ?? {})) files[`libs/${name}`] = Buffer.alloc(bytes, 7);
  if (icon === 'layered') {
    base.push(
      media(BACKGROUND_ID, 'background', 'background.png'),
      media(FOREGROUND_ID, 'foreground', 'foreground.png'),
      media(ICON_ID, 'layered_image', 'layered_image.json'),
    );
    files['resources/base/media/background.png'] = makePng(patternImage(64, 64));
    files['resources/base/media/foreground.png'] = makePng(patternImage(64, 64));
    files['resources/base/media/layered_image.json'] = JSON.stringify({
      'layered-image': { background: `$media:${BACKGROUND_ID}`, foreground: `$media:${FOREGROUND_ID}` },
    });
  } else if (icon === 'plain') {
    base.push(media(ICON_ID, 'app_icon', 'app_icon.png'));
    files['resources/base/media/app_icon.png'] = makePng(patternImage(48, 48));
  }
  const configs: ResourceConfigSpec[] = [{ locale: '', items: base }];
  const zhLabel = options.zhLabel === undefined ? '鸿蒙演示（中文）' : options.zhLabel;
  if (zhLabel !== null)
    configs.push({
      locale: 'zh_CN',
      items: [{ id: LABEL_ID, type: RES_TYPE.string, name: 'app_name', value: zhLabel }],
    });
  configs.push({
    locale: 'en_US',
    items: [{ id: LABEL_ID, type: RES_TYPE.string, name: 'app_name', value: 'Harmony Demo' }],
  });
  const packInfo = {
    summary: {
      app: { bundleName: app.bundleName, bundleType: 'app', version: { code: app.versionCode, name: app.versionName } },
      modules: [{ deviceType: module.deviceTypes, distro: { moduleType, moduleName } }],
    },
    packages: [{ deviceType: module.deviceTypes, moduleType, name: `${moduleName}-default` }],
  };
  const entries: Record<string, Buffer | string> = {
    'ets/modules.abc': Buffer.alloc(256, 7),
    'module.json': JSON.stringify({ app, module }),
    'pack.info': JSON.stringify(packInfo),
    'resources.index': (options.resources === 'v2' ? buildResourcesIndexV2 : buildResourcesIndex)(configs),
    ...files,
    ...options.extra,
  };
  return Object.entries(entries).map(([name, data]) => ({ name, data, method: 'store' as const }));
}

/** The sign block of a module signed by the test developer, with its profile (null: none). */
export function sampleHapSigningBlock(profile: HapProfileOptions | null = {}): Buffer {
  const { root, ca, developer, profileSigner } = harmonyIdentities();
  const values: [number, Buffer][] = [];
  if (profile)
    values.push([
      0x20000002,
      signCms(Buffer.from(JSON.stringify(hapProfileJson(developer, profile))), profileSigner, {
        extraCertificates: [root],
      }),
    ]);
  values.push([0x20000000, signCms(Buffer.alloc(32, 1), developer, { extraCertificates: [root, ca] })]);
  return hapSigningBlock(values);
}

/** A signed .hap (or .hsp with `moduleType: 'shared'`) built in memory. */
export function sampleHap(options: SampleHapOptions = {}): Buffer {
  const entries = sampleHapEntries(options);
  if (options.profile === null) return buildZip(entries);
  return buildZip(entries, { beforeCentralDirectory: sampleHapSigningBlock(options.profile) });
}

/** A packed .app: pack.info and the module files at the root. */
export function sampleHarmonyApp(modules: Record<string, Buffer>): Buffer {
  return buildZip([
    { name: 'pack.info', data: JSON.stringify({ summary: { app: {} }, packages: [] }) },
    ...Object.entries(modules).map(([name, data]) => ({ name, data, method: 'store' as const })),
  ]);
}

/** The test developer's private key (the key `sampleHap` modules are signed with), to sign their install manifests. */
export function harmonyDeveloperKey(): KeyObject {
  return createPrivateKey(forge.pki.privateKeyToPem(harmonyIdentities().developer.key));
}
