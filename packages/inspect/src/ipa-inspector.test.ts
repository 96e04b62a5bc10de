import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectPackage } from './package-inspector.ts';
import { inspectionFailureOf } from './testing/expect-failure.ts';
import { makeCgbiPng, makePng, patternImage } from './testing/images.ts';
import { binaryPlist, infoPlist, ipaEntries, makeProfile, profileDict, xmlPlist } from './testing/packages.ts';
import { makeIdentity } from './testing/signing.ts';
import { createTempDir } from './testing/temp-files.ts';
import { buildZip, type ZipEntrySpec } from './testing/zip-writer.ts';
import type { IpaInspection } from './types.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());
const signer = makeIdentity('Apple iPhone OS Provisioning Profile Signing');
const developer = makeIdentity('Apple Distribution: Example (TEAM123456)');

async function inspectIpaBytes(bytes: Buffer): Promise<IpaInspection> {
  const result = await inspectPackage(temp.write('app.ipa', bytes), { declaredName: 'app.ipa' });
  if (result.kind !== 'ipa') throw new Error(`expected ipa, got ${result.kind}`);
  return result;
}

describe('ipa inspection', () => {
  it('picks the main bundle even when a watch app and an extension come first in zip order', async () => {
    const watch = 'Payload/Demo.app/Watch/DemoWatch.app/';
    const extension = 'Payload/Demo.app/PlugIns/Share.appex/';
    const nested: ZipEntrySpec[] = [
      {
        name: `${watch}Info.plist`,
        data: xmlPlist(
          infoPlist({ CFBundleIdentifier: 'com.example.demo.watchkitapp', CFBundleSupportedPlatforms: ['WatchOS'] }),
        ),
      },
      {
        name: `${watch}embedded.mobileprovision`,
        data: makeProfile(profileDict([developer.der], { Name: 'Watch profile' }), signer),
      },
      { name: `${extension}Info.plist`, data: xmlPlist(infoPlist({ CFBundleIdentifier: 'com.example.demo.share' })) },
      {
        name: `${extension}embedded.mobileprovision`,
        data: makeProfile(profileDict([developer.der], { Name: 'Extension profile' }), signer),
      },
      {
        name: 'Payload/Demo.app/Frameworks/Kit.framework/Info.plist',
        data: xmlPlist(infoPlist({ CFBundleIdentifier: 'com.example.kit' })),
      },
    ];
    const main = ipaEntries('Demo', binaryPlist(infoPlist()), {
      'embedded.mobileprovision': makeProfile(profileDict([developer.der], { Name: 'Main profile' }), signer),
    });
    const result = await inspectIpaBytes(buildZip([...nested, ...main]));
    expect(result).toMatchObject({
      bundleId: 'com.example.demo',
      displayName: '演示应用',
      version: '1.2.3',
      build: '45',
      minimumOsVersion: '13.0',
      platform: 'ios',
      deviceFamilies: ['iphone', 'ipad'],
      bundlePath: 'Payload/Demo.app/',
    });
    expect(result.provisioningProfile?.name).toBe('Main profile');
    expect(result.provisioningProfile?.type).toBe('ad-hoc');
    expect(result.nestedBundles).toEqual([
      { path: 'Payload/Demo.app/Watch/DemoWatch.app/', bundleId: 'com.example.demo.watchkitapp' },
      { path: 'Payload/Demo.app/PlugIns/Share.appex/', bundleId: 'com.example.demo.share' },
    ]);
  });

  it('resolves the largest declared icon (iPad key included) and converts CgBI to a real PNG', async () => {
    const info = infoPlist({
      CFBundleIcons: { CFBundlePrimaryIcon: { CFBundleIconFiles: ['AppIcon60x60'], CFBundleIconName: 'AppIcon' } },
      'CFBundleIcons~ipad': { CFBundlePrimaryIcon: { CFBundleIconFiles: ['AppIcon76x76'] } },
    });
    const result = await inspectIpaBytes(
      buildZip(
        ipaEntries('Demo', xmlPlist(info), {
          'AppIcon60x60@2x.png': makeCgbiPng(patternImage(120, 120)),
          'AppIcon76x76@2x~ipad.png': makeCgbiPng(patternImage(152, 152)),
          'Unrelated@3x.png': makePng(patternImage(300, 300)),
          'Assets.car': Buffer.alloc(64),
        }),
      ),
    );
    expect(result.icon).toMatchObject({
      format: 'png',
      width: 152,
      height: 152,
      convertedFrom: 'cgbi',
      sourcePath: 'Payload/Demo.app/AppIcon76x76@2x~ipad.png',
    });
    const metadata = await sharp(result.icon?.data).metadata();
    expect([metadata.format, metadata.width]).toEqual(['png', 152]);
    expect(result.warnings).toEqual([]);
  });

  it('falls back to old-style icon keys and AppIcon files', async () => {
    const oldStyle = await inspectIpaBytes(
      buildZip(
        ipaEntries('Demo', xmlPlist(infoPlist({ CFBundleIconFile: 'Icon.png' })), {
          'Icon.png': makePng(patternImage(57, 57)),
          'Icon@2x.png': makePng(patternImage(114, 114)),
        }),
      ),
    );
    expect(oldStyle.icon?.width).toBe(114);
    const undeclared = await inspectIpaBytes(
      buildZip(ipaEntries('Demo', xmlPlist(infoPlist()), { 'AppIcon40x40@3x.png': makePng(patternImage(120, 120)) })),
    );
    expect(undeclared.icon?.sourcePath).toBe('Payload/Demo.app/AppIcon40x40@3x.png');
  });

  it('keeps an app whose icon lives only in Assets.car, with a warning and no icon', async () => {
    const info = infoPlist({
      CFBundleIcons: { CFBundlePrimaryIcon: 'App Icon' },
      CFBundleSupportedPlatforms: ['AppleTVOS'],
      UIDeviceFamily: [3],
    });
    const result = await inspectIpaBytes(
      buildZip(ipaEntries('TV', xmlPlist(info), { 'Assets.car': Buffer.alloc(128) })),
    );
    expect(result).toMatchObject({
      bundleId: 'com.example.demo',
      platform: 'tvos',
      deviceFamilies: ['tv'],
      icon: null,
      provisioningProfile: null,
    });
    expect(result.warnings).toEqual(['应用图标只存在于 Assets.car 中，已使用默认图标']);
  });

  it('keeps an app whose profile is unreadable, with a warning', async () => {
    const result = await inspectIpaBytes(
      buildZip(
        ipaEntries('Demo', xmlPlist(infoPlist({ CFBundleDisplayName: '' })), { 'embedded.mobileprovision': 'broken' }),
      ),
    );
    expect(result.displayName).toBe('Demo');
    expect(result.provisioningProfile).toBeNull();
    expect(result.warnings).toContain('描述文件（embedded.mobileprovision）无法解析');
  });

  it('explains a Payload folder that is not at the root', async () => {
    const entries = ipaEntries('Demo', xmlPlist(infoPlist())).map((entry) => ({
      ...entry,
      name: `Build/${entry.name}`,
    }));
    const error = await inspectionFailureOf(() =>
      inspectPackage(temp.write('nested.ipa', buildZip(entries)), { declaredName: 'nested.ipa' }),
    );
    expect(error.reason).toBe('missingAppBundle');
    expect(error.message).toContain('Build/');
  });

  it('rejects an ipa without a bundle identifier or with an unreadable Info.plist', async () => {
    const noId = buildZip(ipaEntries('Demo', xmlPlist(infoPlist({ CFBundleIdentifier: '' }))));
    expect((await inspectionFailureOf(() => inspectIpaBytes(noId))).reason).toBe('metadataUnreadable');
    const garbage = buildZip(ipaEntries('Demo', Buffer.from('not a plist')));
    expect((await inspectionFailureOf(() => inspectIpaBytes(garbage))).reason).toBe('metadataUnreadable');
  });

  it('rejects an ipa without any app bundle', async () => {
    const path = temp.write('empty-payload.ipa', buildZip([{ name: 'Payload/' }, { name: 'readme.txt', data: 'hi' }]));
    const error = await inspectionFailureOf(() => inspectPackage(path, { declaredName: 'x.ipa' }));
    expect([error.reason, error.message]).toEqual([
      'missingAppBundle',
      '安装包中找不到应用信息：找不到 Payload/*.app/Info.plist',
    ]);
  });

  it('reads a game-sized ipa of 50,000 entries correctly', async () => {
    const assets = Array.from({ length: 50_000 }, (_, index) => ({
      name: `Payload/Game.app/Data/${index % 100}/asset-${index}.bin`,
      data: 'x',
    }));
    const main = ipaEntries(
      'Game',
      xmlPlist(infoPlist({ CFBundleIdentifier: 'com.example.game', CFBundleIconFiles: ['AppIcon60x60'] })),
      {
        'AppIcon60x60@3x.png': makeCgbiPng(patternImage(180, 180)),
      },
    );
    const result = await inspectIpaBytes(buildZip([...assets.slice(0, 25_000), ...main, ...assets.slice(25_000)]));
    expect(result.bundleId).toBe('com.example.game');
    expect(result.icon?.width).toBe(180);
  });
});
