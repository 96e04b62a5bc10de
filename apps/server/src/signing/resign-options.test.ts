import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePlistDict, type PlistDict } from '@release/inspect/plist.ts';
import { infoPlist, xmlPlist } from '@release/inspect/testing/packages.ts';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { bytesAt, type AppFiles } from './app-files.ts';
import { loadAppFiles, openIpa } from './ipa-archive.ts';
import { resignIpa } from './ipa-resigner.ts';
import { CS_HASHTYPE, readEmbeddedSignature } from './code-signature.ts';
import { parseMachO } from './macho.ts';
import { sampleSignedIpaEntries, sampleSigningSet, type SampleIpaOptions } from './testing/ipa-builder.ts';
import { verifyApp } from './verify-app.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resign-options-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const set = sampleSigningSet();
const root = 'Payload/Demo.app/';

/** The sample app with a watch app beside its widget and a UISupportedDevices list. */
function sourceIpa(sample: SampleIpaOptions = {}, widgetMinimumOs?: string): string {
  const entries = sampleSignedIpaEntries(sample);
  const widgetInfo = entries.find((entry) => entry.name === `${root}PlugIns/Widget.appex/Info.plist`);
  if (widgetInfo && widgetMinimumOs)
    widgetInfo.data = xmlPlist(
      infoPlist({
        CFBundleIdentifier: 'com.example.demo.widget',
        CFBundleExecutable: 'Widget',
        MinimumOSVersion: widgetMinimumOs,
      }),
    );
  const main = entries.find((entry) => entry.name === `${root}Info.plist`);
  if (main)
    main.data = xmlPlist(
      infoPlist({ CFBundleIdentifier: 'com.example.demo', UISupportedDevices: ['iPhone12,1', 'iPhone13,2'] }),
    );
  const widgetBinary = entries.find((entry) => entry.name === `${root}PlugIns/Widget.appex/Widget`)?.data;
  entries.push(
    { name: `${root}Watch/` },
    { name: `${root}Watch/DemoWatch.app/` },
    {
      name: `${root}Watch/DemoWatch.app/Info.plist`,
      data: xmlPlist(
        infoPlist({
          CFBundleIdentifier: 'com.example.demo.watchkitapp',
          CFBundleExecutable: 'DemoWatch',
          WKCompanionAppBundleIdentifier: 'com.example.demo',
        }),
      ),
    },
    { name: `${root}Watch/DemoWatch.app/DemoWatch`, data: widgetBinary, method: 'deflate' },
    { name: `${root}Watch/DemoWatch.app/face.png`, data: Buffer.alloc(5000, 3), method: 'deflate' },
  );
  const file = path.join(dir, `source-${Math.random().toString(36).slice(2)}.ipa`);
  fs.writeFileSync(file, buildZip(entries));
  return file;
}

async function resigned(options: Parameters<typeof resignIpa>[4], source = sourceIpa()) {
  const output = path.join(dir, `out-${Math.random().toString(36).slice(2)}.ipa`);
  const result = await resignIpa(source, output, set.input(), undefined, options);
  const archive = await openIpa(output);
  try {
    return { result, files: await loadAppFiles(archive) };
  } finally {
    archive.close();
  }
}

const plistOf = (files: AppFiles, name: string): PlistDict =>
  parsePlistDict(bytesAt(files, name) ?? Buffer.alloc(0)) ?? {};

describe('re-signing options', () => {
  it('gives the app a new bundle id (the widget and watch app follow its prefix), name, version and build, drops UISupportedDevices; the verifier passes', async () => {
    const { result, files } = await resigned({
      bundleId: 'com.acme.new',
      displayName: '新名字',
      version: '2.0.0',
      build: '100',
      removeSupportedDevices: true,
    });
    expect(verifyApp(files)).toEqual([]);
    const main = plistOf(files, `${root}Info.plist`);
    expect(main).toMatchObject({
      CFBundleIdentifier: 'com.acme.new',
      CFBundleDisplayName: '新名字',
      CFBundleShortVersionString: '2.0.0',
      CFBundleVersion: '100',
    });
    expect(main.UISupportedDevices).toBeUndefined();
    expect(plistOf(files, `${root}PlugIns/Widget.appex/Info.plist`)).toMatchObject({
      CFBundleIdentifier: 'com.acme.new.widget',
      CFBundleShortVersionString: '2.0.0',
      CFBundleVersion: '100',
    });
    expect(plistOf(files, `${root}Watch/DemoWatch.app/Info.plist`)).toMatchObject({
      CFBundleIdentifier: 'com.acme.new.watchkitapp',
      WKCompanionAppBundleIdentifier: 'com.acme.new',
    });
    // A framework keeps its own id; each bundle was signed under its new id.
    expect(plistOf(files, `${root}Frameworks/Kit.framework/Info.plist`).CFBundleIdentifier).toBe('com.example.Kit');
    expect(result.signed.map((bundle) => bundle.bundleId).sort()).toEqual(
      ['com.acme.new', 'com.acme.new.watchkitapp', 'com.acme.new.widget', 'com.example.Kit'].sort(),
    );
    expect(result.changes).toEqual([
      { what: 'bundleId', from: 'com.example.demo', to: 'com.acme.new' },
      { what: 'displayName', from: '演示应用', to: '新名字' },
      { what: 'version', from: '1.2.3', to: '2.0.0' },
      { what: 'build', from: '45', to: '100' },
      { what: 'supportedDevices', from: null, to: null },
    ]);
  });

  it('removes the watch app and the extensions: none of their files are in the new ipa, which the verifier passes', async () => {
    const { result, files } = await resigned({ removeWatchApp: true, removeExtensions: true });
    expect(verifyApp(files)).toEqual([]);
    const names = [...files.keys()];
    expect(names.filter((name) => name.startsWith(`${root}Watch/`) || name.startsWith(`${root}PlugIns/`))).toEqual([]);
    expect(names).toContain(`${root}Frameworks/Kit.framework/Kit`);
    expect(result.signed.map((bundle) => bundle.bundleId).sort()).toEqual(['com.example.Kit', 'com.example.demo']);
    expect(result.changes.map((change) => change.what)).toEqual(['watchApp', 'extensions']);
  });

  it('chooses code directories by minimum OS: SHA-256 only from iOS 11, SHA-1 kept or added below; the verifier passes', async () => {
    /** The hash types of a binary's code directories in the new ipa, primary first. */
    const hashTypes = (files: AppFiles, name: string) => {
      const binary = bytesAt(files, `${root}${name}`) ?? Buffer.alloc(0);
      const slice = parseMachO(binary).slices[0];
      return slice ? readEmbeddedSignature(binary, slice)?.codeDirectories.map((cd) => cd.hashType) : undefined;
    };
    const both = [CS_HASHTYPE.sha1, CS_HASHTYPE.sha256];
    // Signed with SHA-1 + SHA-256 everywhere; the widget alone still runs on iOS 10.
    const old = await resigned({ hashesByMinimumOs: true }, sourceIpa({ hashType: CS_HASHTYPE.sha1 }, '10.0'));
    expect(verifyApp(old.files)).toEqual([]);
    expect(hashTypes(old.files, 'Demo')).toEqual([CS_HASHTYPE.sha256]);
    expect(hashTypes(old.files, 'Frameworks/Kit.framework/Kit')).toEqual([CS_HASHTYPE.sha256]);
    expect(hashTypes(old.files, 'Frameworks/libswiftCore.dylib')).toEqual([CS_HASHTYPE.sha256]);
    expect(hashTypes(old.files, 'Watch/DemoWatch.app/DemoWatch')).toEqual([CS_HASHTYPE.sha256]);
    expect(hashTypes(old.files, 'PlugIns/Widget.appex/Widget')).toEqual(both);
    expect(old.result.changes).toEqual([
      { what: 'codeDirectories', from: null, to: 'Kit.framework、DemoWatch.app、Demo.app 只保留 SHA-256' },
    ]);
    // Without the option the source's code directories stay as they were.
    const kept = await resigned({}, sourceIpa({ hashType: CS_HASHTYPE.sha1 }, '10.0'));
    expect(hashTypes(kept.files, 'Demo')).toEqual(both);
    expect(kept.result.changes).toEqual([]);
    // Signed with SHA-256 only, the iOS 9 widget gets the SHA-1 code directory it needs; the rest stays.
    const added = await resigned({ hashesByMinimumOs: true }, sourceIpa({}, '9.0'));
    expect(verifyApp(added.files)).toEqual([]);
    expect(hashTypes(added.files, 'PlugIns/Widget.appex/Widget')).toEqual(both);
    expect(hashTypes(added.files, 'Demo')).toEqual([CS_HASHTYPE.sha256]);
    expect(added.result.changes).toEqual([{ what: 'codeDirectories', from: null, to: 'Widget.appex 加上 SHA-1' }]);
  });

  it('signs the main app with given entitlements (its own identifiers set), refusing one the profile does not allow; the verifier passes', async () => {
    // Fewer than the profile's: no keychain-access-groups, which entitlements taken from the profile always carry.
    const given = xmlPlist({ 'get-task-allow': true }).toString('utf8');
    const { result, files } = await resigned({ entitlements: given });
    expect(verifyApp(files)).toEqual([]);
    const signature = (name: string) => {
      const binary = bytesAt(files, `${root}${name}`) as Buffer;
      return readEmbeddedSignature(binary, parseMachO(binary).slices[0]!);
    };
    expect(signature('Demo')?.entitlements).toEqual({
      'get-task-allow': true,
      'application-identifier': 'NEWTEAM001.com.example.demo',
      'com.apple.developer.team-identifier': 'NEWTEAM001',
    });
    // Extensions keep theirs from the profile.
    expect(signature('PlugIns/Widget.appex/Widget')?.entitlements?.['keychain-access-groups']).toEqual([
      'NEWTEAM001.com.example.demo',
    ]);
    expect(result.changes).toEqual([{ what: 'entitlements', from: null, to: '1' }]);
    await expect(
      resigned({ entitlements: xmlPlist({ 'aps-environment': 'production' }).toString('utf8') }),
    ).rejects.toMatchObject({
      name: 'BundleSigningError',
      reason: 'entitlements',
      message: 'aps-environment',
    });
  });
});
