import { describe, expect, it } from 'vitest';
import {
  contentTypeOf,
  groupByBound,
  isDebugSigned,
  isInstallableKind,
  kindOfBuild,
  kindOfFileName,
  mainKindOf,
  nativePackageTypes,
  PACKAGE_KIND_TABLE,
  packageFileExtensions,
  packageKindRow,
  packageKinds,
  platformTag,
} from './package-kinds.ts';

describe('the package kind table', () => {
  it('has a row for every kind and a main kind for every platform', () => {
    expect(Object.keys(PACKAGE_KIND_TABLE).sort()).toEqual([...packageKinds].sort());
    expect(nativePackageTypes.map(mainKindOf)).toEqual(['ipa', 'apk', 'zip', 'mac', 'hap']);
    expect(nativePackageTypes.map(platformTag)).toEqual(['IPA/iOS', 'APK/Android', 'WEB', 'MAC', 'HAP/HarmonyOS']);
  });

  it('declares each extension for one kind only, and a Mac app by none (it is a .zip told apart by content)', () => {
    const all = packageKinds.flatMap((kind) => PACKAGE_KIND_TABLE[kind].extensions);
    expect(new Set(all).size).toBe(all.length);
    expect(PACKAGE_KIND_TABLE.mac.extensions).toEqual([]);
    expect(packageFileExtensions).toEqual(['.ipa', '.apk', '.aab', '.zip', '.html', '.htm', '.hap', '.hsp', '.app']);
  });

  it('reads a kind from a file name, whatever its case', () => {
    expect(kindOfFileName('Demo 1.0.IPA')).toBe('ipa');
    expect(kindOfFileName('shop.apk')).toBe('apk');
    expect(kindOfFileName('shop.aab')).toBe('aab');
    expect(kindOfFileName('Tool.zip')).toBe('zip');
    expect(kindOfFileName('index.htm')).toBe('html');
    expect(kindOfFileName('entry-default-signed.HAP')).toBe('hap');
    expect(kindOfFileName('hsp1-default-signed.hsp')).toBe('hsp');
    expect(kindOfFileName('demo-default-signed.app')).toBe('app');
    expect(kindOfFileName('notes.txt')).toBeNull();
    expect(kindOfFileName('ipa')).toBeNull();
  });

  it('serves downloads with the content type of their kind, and any other file as octet-stream', () => {
    expect(contentTypeOf('a.apk')).toBe('application/vnd.android.package-archive');
    expect(contentTypeOf('a.ipa')).toBe('application/octet-stream');
    expect(contentTypeOf('page.HTML')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('site.zip')).toBe('application/zip');
    expect(contentTypeOf('log.tar.gz')).toBe('application/octet-stream');
  });

  it('offers 安装 for an ipa, 下载安装 for an apk, 打开 for an html page and only the file of an .aab', () => {
    expect(packageKinds.map((kind) => packageKindRow(kind).action)).toEqual([
      'install',
      'downloadInstall',
      'download',
      'download',
      'download',
      'open',
      'download',
      'download',
      'download',
    ]);
    // A shared module installs only with its entry module; a packed .app goes to AppGallery, not to a device.
    expect(packageKinds.filter((kind) => !isInstallableKind(kind))).toEqual(['aab', 'hsp', 'app']);
    expect(packageKindRow('aab').label).toBe('Android App Bundle');
  });

  it("reads a build's kind from the inspector's word, else its extension on its own platform, else the platform's main kind", () => {
    expect(kindOfBuild({ statedKind: 'aab', fileName: 'app.bin', platform: 'android' })).toBe('aab');
    expect(kindOfBuild({ statedKind: undefined, fileName: 'App.AAB', platform: 'android' })).toBe('aab');
    expect(kindOfBuild({ statedKind: 'nonsense', fileName: 'app.zip', platform: 'mac' })).toBe('mac');
    expect(kindOfBuild({ statedKind: null, fileName: 'index.html', platform: 'web' })).toBe('html');
    expect(kindOfBuild({ statedKind: undefined, fileName: 'noext', platform: 'ios' })).toBe('ipa');
    expect(kindOfBuild({ statedKind: 'hsp', fileName: 'lib.hsp', platform: 'harmony' })).toBe('hsp');
    expect(kindOfBuild({ statedKind: undefined, fileName: 'entry.bin', platform: 'harmony' })).toBe('hap');
  });

  it('flags a build signed for debugging only by its profile: iOS development, HarmonyOS debug', () => {
    expect(isDebugSigned('ipa', { provisioningProfile: { type: 'development' } })).toBe(true);
    expect(isDebugSigned('ipa', { provisioningProfile: { type: 'ad-hoc' } })).toBe(false);
    for (const kind of ['hap', 'hsp', 'app'] as const) {
      expect(isDebugSigned(kind, { profile: { type: 'debug', devices: ['a'] } })).toBe(true);
      expect(isDebugSigned(kind, { profile: { type: 'enterprise' } })).toBe(false);
    }
    // No profile, an unreadable one, or a kind without profiles.
    expect(isDebugSigned('hap', {})).toBe(false);
    expect(isDebugSigned('hap', { profile: 'debug' })).toBe(false);
    expect(isDebugSigned('apk', { profile: { type: 'debug' } })).toBe(false);
  });

  it('puts every platform in one bound-version group: IPA, APK, WEB (web and mac), HAP', () => {
    const builds = nativePackageTypes.map((platform, id) => ({ id, platform }));
    const groups = groupByBound(
      builds,
      (b) => b.platform,
      (b) => b.platform,
    );
    expect(groups).toEqual({ ipa: ['ios'], apk: ['android'], zip: ['web', 'mac'], hap: ['harmony'] });
    expect(
      groupByBound(
        [{ platform: 'symbian' }],
        (b) => b.platform,
        (b) => b,
      ),
    ).toEqual({
      ipa: [],
      apk: [],
      zip: [],
      hap: [],
    });
  });
});
