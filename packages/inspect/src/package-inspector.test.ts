import { afterAll, describe, expect, it } from 'vitest';
import { AndroidAttr } from './axml.ts';
import { inspectPackage } from './package-inspector.ts';
import { buildAxml } from './testing/axml-writer.ts';
import { inspectionFailureOf } from './testing/expect-failure.ts';
import { makePng, patternImage } from './testing/images.ts';
import { infoPlist, ipaEntries, makeProfile, profileDict, v1SignatureEntries, xmlPlist } from './testing/packages.ts';
import { xmlNode } from './testing/proto-writer.ts';
import { makeIdentity } from './testing/signing.ts';
import { createTempDir } from './testing/temp-files.ts';
import { buildZip } from './testing/zip-writer.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

const apk = buildZip([
  {
    name: 'AndroidManifest.xml',
    data: buildAxml({
      name: 'manifest',
      attributes: [
        { name: 'versionCode', androidId: AndroidAttr.versionCode, value: { int: 7 } },
        { name: 'versionName', androidId: AndroidAttr.versionName, value: '7.0' },
        { name: 'package', value: 'com.example.android' },
      ],
    }),
  },
]);
const ipa = buildZip(ipaEntries('Demo', xmlPlist(infoPlist())));

function icns(png: Buffer): Buffer {
  const entry = Buffer.alloc(8);
  entry.write('ic07', 0, 'latin1');
  entry.writeUInt32BE(png.length + 8, 4);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(png.length + 16, 4);
  return Buffer.concat([head, entry, png]);
}

describe('inspectPackage: what the file really is', () => {
  it.each([
    ['an apk renamed .ipa', apk, 'renamed.ipa', '扩展名为.ipa但内容是Android安装包'],
    ['an ipa renamed .apk', ipa, 'renamed.apk', '扩展名为.apk但内容是iOS安装包'],
    ['an ipa uploaded as a web zip', ipa, 'site.zip', '扩展名为.zip但内容是iOS安装包'],
    [
      'an html page named .apk',
      Buffer.from('<!DOCTYPE html><html></html>'),
      'page.apk',
      '扩展名为.apk但内容是HTML网页',
    ],
  ])('rejects %s by content', async (_name, bytes, declaredName, message) => {
    const error = await inspectionFailureOf(() => inspectPackage(temp.write(declaredName, bytes), { declaredName }));
    expect([error.reason, error.message]).toEqual(['kindMismatch', message]);
  });

  it('lets the chosen type win over the name, and says so', async () => {
    const error = await inspectionFailureOf(() =>
      inspectPackage(temp.write('x.bin', apk), { kind: 'ipa', declaredName: 'x.bin' }),
    );
    expect(error.message).toBe('所选类型为iOS安装包但内容是Android安装包');
  });

  it('detects the kind when nothing was declared', async () => {
    expect((await inspectPackage(temp.write('upload', apk))).kind).toBe('apk');
    expect((await inspectPackage(temp.write('upload', ipa))).kind).toBe('ipa');
  });

  it.each([
    ['an empty file', Buffer.alloc(0), 'emptyFile', '文件为空'],
    ['a text file', Buffer.from('hello, this is not a package'), 'notAPackage', '不是有效的安装包'],
    ['a truncated ipa', ipa.subarray(0, Math.floor(ipa.length / 2)), 'corrupt', '文件已损坏或不完整'],
  ])('rejects %s', async (_name, bytes, reason, message) => {
    const error = await inspectionFailureOf(() =>
      inspectPackage(temp.write('upload.ipa', bytes), { declaredName: 'upload.ipa' }),
    );
    expect([error.reason, error.message]).toEqual([reason, message]);
  });

  it('rejects a zip with a ../ path before reading anything', async () => {
    const evil = buildZip([
      ...ipaEntries('Demo', xmlPlist(infoPlist())),
      { name: 'Payload/../../../tmp/x', data: 'x' },
    ]);
    expect((await inspectionFailureOf(() => inspectPackage(temp.write('evil.ipa', evil)))).reason).toBe('illegalPath');
  });
});

describe('inspectPackage: web, html, mac and aab', () => {
  it('reads a web zip: file count, size and the shallowest index.html', async () => {
    const web = buildZip([
      { name: 'dist/' },
      { name: 'dist/index.html', data: '<html></html>' },
      { name: 'dist/docs/index.html', data: '<html></html>' },
      { name: 'dist/app.js', data: 'console.log(1)' },
      { name: '__MACOSX/index.html', data: 'x' },
    ]);
    const result = await inspectPackage(temp.write('site.zip', web), { declaredName: 'site.zip' });
    expect(result).toMatchObject({ kind: 'zip', fileCount: 4, indexHtmlPath: 'dist/index.html', warnings: [] });
  });

  it('warns about a web zip without index.html', async () => {
    const result = await inspectPackage(temp.write('files.zip', buildZip([{ name: 'a.txt', data: 'a' }])), {
      kind: 'zip',
    });
    expect(result.warnings).toEqual(['压缩包中没有 index.html，无法作为网页打开']);
  });

  it('reads a single html page and its title', async () => {
    const html = '\uFEFF<!doctype html><html><head><title> 活动页 &amp; 下载 </title></head><body></body></html>';
    const result = await inspectPackage(temp.write('page.html', html), { declaredName: 'page.html' });
    expect(result).toMatchObject({ kind: 'html', title: '活动页 & 下载' });
  });

  it('reads a zipped macOS app: outermost bundle, icns icon and profile', async () => {
    const signer = makeIdentity('Mac OS X Provisioning Profile Signing');
    const mac = buildZip([
      {
        name: 'Tool.app/Contents/Library/LoginItems/Helper.app/Contents/Info.plist',
        data: xmlPlist({ CFBundleIdentifier: 'com.example.helper' }),
      },
      {
        name: 'Tool.app/Contents/Info.plist',
        data: xmlPlist({
          CFBundleIdentifier: 'com.example.tool',
          CFBundleName: 'Tool',
          CFBundleShortVersionString: '2.0',
          CFBundleVersion: '200',
          LSMinimumSystemVersion: '12.0',
          CFBundleIconFile: 'AppIcon',
        }),
      },
      { name: 'Tool.app/Contents/Resources/AppIcon.icns', data: icns(makePng(patternImage(128, 128))) },
      {
        name: 'Tool.app/Contents/embedded.provisionprofile',
        data: makeProfile(
          profileDict([], { Platform: ['OSX'], ProvisionedDevices: [], ProvisionsAllDevices: true }),
          signer,
        ),
      },
    ]);
    const result = await inspectPackage(temp.write('tool.zip', mac), { declaredName: 'tool.zip' });
    expect(result).toMatchObject({
      kind: 'mac',
      bundleId: 'com.example.tool',
      displayName: 'Tool',
      version: '2.0',
      build: '200',
      minimumOsVersion: '12.0',
      bundlePath: 'Tool.app/',
    });
    if (result.kind !== 'mac') throw new Error('not mac');
    expect(result.icon).toMatchObject({ format: 'png', width: 128 });
    expect(result.provisioningProfile?.type).toBe('developer-id');
    // The profile's entitlement keys are stored with the package facts, so the diff of two builds shows them.
    expect(result.facts?.entitlements).toEqual(['application-identifier', 'get-task-allow']);
  });

  it('keeps a macOS app whose profile is unreadable, with a warning', async () => {
    const mac = buildZip([
      { name: 'Tool.app/Contents/Info.plist', data: xmlPlist({ CFBundleIdentifier: 'com.example.tool' }) },
      { name: 'Tool.app/Contents/embedded.provisionprofile', data: 'broken' },
    ]);
    const result = await inspectPackage(temp.write('broken-profile.zip', mac), { declaredName: 'tool.zip' });
    expect(result).toMatchObject({ kind: 'mac', bundleId: 'com.example.tool', provisioningProfile: null });
    expect(result.warnings).toContain('描述文件（embedded.provisionprofile）无法解析');
  });

  it('reads an Android App Bundle manifest (protobuf) and its v1 signer', async () => {
    const signer = makeIdentity('Bundle Key');
    const manifest = xmlNode({
      name: 'manifest',
      attributes: [
        { name: 'versionCode', resourceId: AndroidAttr.versionCode, value: { int: 31 } },
        { name: 'versionName', resourceId: AndroidAttr.versionName, value: { text: '3.1 (测试)' } },
        { name: 'package', value: { text: 'com.example.bundle' } },
      ],
      children: [
        {
          name: 'uses-sdk',
          attributes: [{ name: 'minSdkVersion', resourceId: AndroidAttr.minSdkVersion, value: { int: 24 } }],
        },
        {
          name: 'application',
          attributes: [{ name: 'label', resourceId: AndroidAttr.label, value: { text: 'Bundle' } }],
        },
      ],
    });
    const aab = buildZip([
      { name: 'base/manifest/AndroidManifest.xml', data: manifest },
      ...v1SignatureEntries(signer, [], 'KEY0'),
    ]);
    const result = await inspectPackage(temp.write('app.aab', aab), { declaredName: 'app.aab' });
    expect(result).toMatchObject({
      kind: 'aab',
      packageName: 'com.example.bundle',
      versionCode: 31,
      versionName: '3.1 (测试)',
      minSdkVersion: 24,
      label: 'Bundle',
    });
    if (result.kind !== 'aab') throw new Error('not aab');
    expect(result.signatures.signers.map((item) => item.sha256)).toEqual([signer.sha256]);
  });
});
