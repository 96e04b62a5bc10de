import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { AndroidAttr } from './axml.ts';
import { inspectPackage } from './package-inspector.ts';
import { buildArsc, type ArscEntry } from './testing/arsc-writer.ts';
import { buildAxml, type AxmlElement } from './testing/axml-writer.ts';
import { inspectionFailureOf } from './testing/expect-failure.ts';
import { makePng, patternImage } from './testing/images.ts';
import { schemeBlockValue, signingBlock, v1SignatureEntries } from './testing/packages.ts';
import { EC_CERTIFICATE_SHA256, ecCertificateDer, makeIdentity } from './testing/signing.ts';
import { createTempDir } from './testing/temp-files.ts';
import { buildZip, type ZipEntrySpec } from './testing/zip-writer.ts';
import type { ApkInspection } from './types.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

const release = makeIdentity('Release Key', '11');
const companyCa = makeIdentity('Company CA', '12');
const rotated = makeIdentity('Rotated Key', '13');

function manifest(options: {
  label: AxmlElement['attributes'];
  icon?: number;
  versionName?: string;
  extra?: AxmlElement[];
}): AxmlElement {
  return {
    name: 'manifest',
    attributes: [
      { name: 'versionCode', androidId: AndroidAttr.versionCode, value: { int: 104 } },
      { name: 'versionName', androidId: AndroidAttr.versionName, value: options.versionName ?? '1.0.4 [BETA]' },
      { name: 'package', value: 'com.example.shop' },
    ],
    children: [
      {
        name: 'uses-sdk',
        attributes: [
          { name: 'minSdkVersion', androidId: AndroidAttr.minSdkVersion, value: { int: 21 } },
          { name: 'targetSdkVersion', androidId: AndroidAttr.targetSdkVersion, value: { int: 34 } },
        ],
      },
      {
        name: 'uses-permission',
        attributes: [{ name: 'name', androidId: AndroidAttr.name, value: 'android.permission.INTERNET' }],
      },
      {
        name: 'uses-permission',
        attributes: [{ name: 'name', androidId: AndroidAttr.name, value: 'android.permission.CAMERA' }],
      },
      ...(options.extra ?? []),
      {
        name: 'application',
        attributes: [
          ...(options.label ?? []),
          ...(options.icon === undefined
            ? []
            : [{ name: 'icon', androidId: AndroidAttr.icon, value: { ref: options.icon } }]),
        ],
      },
    ],
  };
}

const labelEntry: ArscEntry = {
  key: 'string/app_name',
  values: [
    { value: { string: '商城' } },
    { config: { language: 'zh', region: 'CN' }, value: { string: '商城（简体）' } },
    { config: { language: 'fr' }, value: { string: 'Boutique' } },
  ],
};

async function inspectApkBytes(entries: ZipEntrySpec[], block?: Buffer): Promise<ApkInspection> {
  const path = temp.write('app.apk', buildZip(entries, { beforeCentralDirectory: block }));
  const result = await inspectPackage(path, { declaredName: 'app.apk' });
  if (result.kind !== 'apk') throw new Error(`expected apk, got ${result.kind}`);
  return result;
}

describe.each([
  ['UTF-16', false],
  ['UTF-8', true],
])('apk with %s string pools', (_name, utf8) => {
  it('reads the manifest, the label through resources and the highest-density raster icon', async () => {
    const arsc = buildArsc(
      [
        labelEntry,
        {
          key: 'mipmap/ic_launcher',
          values: [
            { config: { density: 160 }, value: { string: 'res/mipmap-mdpi-v4/ic_launcher.png' } },
            { config: { density: 640 }, value: { string: 'res/mipmap-xxxhdpi-v4/ic_launcher.png' } },
            { config: { density: 0xfffe }, value: { string: 'res/mipmap-anydpi-v26/ic_launcher.xml' } },
          ],
        },
      ],
      { utf8 },
    );
    const labelRef = arsc.ids['string/app_name'] ?? 0;
    const axml = buildAxml(
      manifest({
        label: [{ name: 'label', androidId: AndroidAttr.label, value: { ref: labelRef } }],
        icon: arsc.ids['mipmap/ic_launcher'],
      }),
      { utf8 },
    );
    const result = await inspectApkBytes([
      { name: 'AndroidManifest.xml', data: axml },
      { name: 'resources.arsc', data: arsc.bytes, method: 'store' },
      { name: 'res/mipmap-mdpi-v4/ic_launcher.png', data: makePng(patternImage(48, 48)) },
      { name: 'res/mipmap-xxxhdpi-v4/ic_launcher.png', data: makePng(patternImage(192, 192)) },
      { name: 'res/mipmap-anydpi-v26/ic_launcher.xml', data: buildAxml({ name: 'adaptive-icon' }) },
      { name: 'lib/arm64-v8a/libgame.so', data: 'elf' },
      { name: 'lib/armeabi-v7a/libgame.so', data: 'elf' },
      ...v1SignatureEntries(release),
    ]);
    expect(result).toMatchObject({
      packageName: 'com.example.shop',
      versionName: '1.0.4 [BETA]',
      versionCode: 104,
      minSdkVersion: 21,
      targetSdkVersion: 34,
      label: '商城',
      localizedLabels: { '': '商城', 'zh-CN': '商城（简体）', fr: 'Boutique' },
      permissions: ['android.permission.INTERNET', 'android.permission.CAMERA'],
      deviceType: 'phone',
      nativeAbis: ['arm64-v8a', 'armeabi-v7a'],
      warnings: [],
    });
    expect(result.icon).toMatchObject({
      format: 'png',
      width: 192,
      sourcePath: 'res/mipmap-xxxhdpi-v4/ic_launcher.png',
      convertedFrom: null,
    });
    expect(result.signatures.schemes).toEqual(['v1']);
    expect(result.signatures.signers.map((signer) => signer.sha256)).toEqual([release.sha256]);
  });
});

describe('apk icons', () => {
  it('converts a WebP launcher icon to PNG', async () => {
    const webp = await sharp({ create: { width: 144, height: 144, channels: 4, background: '#3366ff' } })
      .webp()
      .toBuffer();
    const arsc = buildArsc([
      { key: 'mipmap/ic_launcher', values: [{ config: { density: 480 }, value: { string: 'res/Xy.webp' } }] },
    ]);
    const result = await inspectApkBytes([
      {
        name: 'AndroidManifest.xml',
        data: buildAxml(
          manifest({
            label: [{ name: 'label', androidId: AndroidAttr.label, value: 'Shop' }],
            icon: arsc.ids['mipmap/ic_launcher'],
          }),
        ),
      },
      { name: 'resources.arsc', data: arsc.bytes },
      { name: 'res/Xy.webp', data: webp },
    ]);
    expect(result.label).toBe('Shop');
    expect(result.icon).toMatchObject({
      format: 'png',
      width: 144,
      height: 144,
      convertedFrom: 'webp',
      sourcePath: 'res/Xy.webp',
    });
    expect((await sharp(result.icon?.data).metadata()).format).toBe('png');
    expect(result.warnings).toEqual(['安装包未签名，设备上无法安装']);
  });

  it('composites an adaptive icon whose foreground is raster over its colour background', async () => {
    const foreground = Buffer.alloc(96 * 96 * 4);
    for (let at = 0; at < foreground.length; at += 4)
      foreground.set((at / 4) % 96 > 48 ? [255, 255, 255, 255] : [0, 0, 0, 0], at);
    const arsc = buildArsc([
      {
        key: 'mipmap/ic_launcher',
        values: [{ config: { density: 0xfffe }, value: { string: 'res/mipmap-anydpi-v26/ic_launcher.xml' } }],
      },
      { key: 'drawable/fg', values: [{ config: { density: 480 }, value: { string: 'res/drawable-xxhdpi/fg.png' } }] },
      { key: 'color/bg', values: [{ value: { color: 0xff00aa00 } }] },
    ]);
    const adaptive = buildAxml({
      name: 'adaptive-icon',
      children: [
        {
          name: 'background',
          attributes: [
            { name: 'drawable', androidId: AndroidAttr.drawable, value: { ref: arsc.ids['color/bg'] ?? 0 } },
          ],
        },
        {
          name: 'foreground',
          attributes: [
            { name: 'drawable', androidId: AndroidAttr.drawable, value: { ref: arsc.ids['drawable/fg'] ?? 0 } },
          ],
        },
      ],
    });
    const result = await inspectApkBytes([
      { name: 'AndroidManifest.xml', data: buildAxml(manifest({ label: [], icon: arsc.ids['mipmap/ic_launcher'] })) },
      { name: 'resources.arsc', data: arsc.bytes },
      { name: 'res/mipmap-anydpi-v26/ic_launcher.xml', data: adaptive },
      { name: 'res/drawable-xxhdpi/fg.png', data: makePng({ width: 96, height: 96, pixels: foreground }) },
    ]);
    expect(result.icon).toMatchObject({ format: 'png', width: 96, convertedFrom: 'adaptive-layers' });
    const pixels = await sharp(result.icon?.data).ensureAlpha().raw().toBuffer();
    expect([...pixels.subarray(0, 4)]).toEqual([0, 0xaa, 0, 255]);
    expect([...pixels.subarray(95 * 4, 96 * 4)]).toEqual([255, 255, 255, 255]);
  });

  it('keeps an app whose icon is vector-only, with a warning', async () => {
    const arsc = buildArsc([
      { key: 'drawable/ic_vector', values: [{ value: { string: 'res/drawable/ic_vector.xml' } }] },
    ]);
    const result = await inspectApkBytes([
      { name: 'AndroidManifest.xml', data: buildAxml(manifest({ label: [], icon: arsc.ids['drawable/ic_vector'] })) },
      { name: 'resources.arsc', data: arsc.bytes },
      { name: 'res/drawable/ic_vector.xml', data: buildAxml({ name: 'vector' }) },
    ]);
    expect(result.icon).toBeNull();
    expect(result.warnings).toContain('应用图标为矢量图或无法读取，已使用默认图标');
  });
});

describe('apk signatures', () => {
  it('lists the current v3 signer first, then the v2 EC and v1 RSA signers, choosing v1 signers over CA certificates', async () => {
    const block = signingBlock([
      [0x42726577, Buffer.alloc(100)],
      [0x7109871a, schemeBlockValue([[ecCertificateDer()], [release.der]])],
      [0xf05368c0, schemeBlockValue([[rotated.der]], true)],
    ]);
    const result = await inspectApkBytes(
      [
        { name: 'AndroidManifest.xml', data: buildAxml(manifest({ label: [] })) },
        ...v1SignatureEntries(release, [companyCa]),
      ],
      block,
    );
    expect(result.signatures.schemes).toEqual(['v1', 'v2', 'v3']);
    expect(result.signatures.signers.map((signer) => [signer.commonName, signer.sha256, signer.schemes])).toEqual([
      ['Rotated Key', rotated.sha256, ['v3']],
      ['ec-test', EC_CERTIFICATE_SHA256, ['v2']],
      ['Release Key', release.sha256, ['v1', 'v2']],
    ]);
  });
});

describe('apk manifests', () => {
  it('reads a TV app without resources.arsc and says what is missing', async () => {
    const result = await inspectApkBytes([
      {
        name: 'AndroidManifest.xml',
        data: buildAxml(
          manifest({
            label: [{ name: 'label', androidId: AndroidAttr.label, value: 'Living Room' }],
            extra: [
              {
                name: 'uses-feature',
                attributes: [{ name: 'name', androidId: AndroidAttr.name, value: 'android.software.leanback' }],
              },
            ],
          }),
        ),
      },
    ]);
    expect(result).toMatchObject({
      label: 'Living Room',
      deviceType: 'tv',
      features: ['android.software.leanback'],
      icon: null,
    });
    expect(result.warnings).toContain('安装包中没有 resources.arsc，应用名称和图标可能无法显示');
  });

  it('rejects a manifest that is not binary XML', async () => {
    const error = await inspectionFailureOf(() =>
      inspectApkBytes([{ name: 'AndroidManifest.xml', data: '<manifest package="x"/>' }]),
    );
    expect(error.reason).toBe('metadataUnreadable');
  });
});
