import { describe, expect, it } from 'vitest';
import { buildCodeResources } from './code-resources-builder.ts';
import { checkSealedFiles, parseCodeResources } from './code-resources.ts';

const bundle = new Map<string, Buffer>([
  ['Demo', Buffer.from('main executable')],
  ['Info.plist', Buffer.from('<plist/>')],
  ['PkgInfo', Buffer.from('APPL????')],
  ['embedded.mobileprovision', Buffer.from('profile')],
  ['Assets.car', Buffer.from('assets')],
  ['Base.lproj/Main.storyboardc/Info.plist', Buffer.from('storyboard')],
  ['zh-Hans.lproj/Localizable.strings', Buffer.from('"a" = "甲";')],
  ['zh-Hans.lproj/locversion.plist', Buffer.from('omitted')],
  ['.DS_Store', Buffer.from('finder')],
  ['Frameworks/Kit.framework/Kit', Buffer.from('framework code')],
  ['Frameworks/Kit.framework/_CodeSignature/CodeResources', Buffer.from('its seal')],
  ['_CodeSignature/CodeResources', Buffer.from('the old seal')],
  ['a&b <c>.png', Buffer.from('escaped name')],
]);

describe('buildCodeResources', () => {
  it('seals what Xcode seals: files (SHA-1) with Info.plist and PkgInfo, files2 (SHA-256) without them', () => {
    const resources = parseCodeResources(buildCodeResources(bundle, 'Demo'))!;
    expect([...resources.files.keys()]).toEqual([
      '.DS_Store',
      'Assets.car',
      'Base.lproj/Main.storyboardc/Info.plist',
      'Frameworks/Kit.framework/Kit',
      'Frameworks/Kit.framework/_CodeSignature/CodeResources',
      'Info.plist',
      'PkgInfo',
      'a&b <c>.png',
      'embedded.mobileprovision',
      'zh-Hans.lproj/Localizable.strings',
    ]);
    expect([...resources.files2.keys()]).toEqual([
      'Assets.car',
      'Base.lproj/Main.storyboardc/Info.plist',
      'Frameworks/Kit.framework/Kit',
      'Frameworks/Kit.framework/_CodeSignature/CodeResources',
      'a&b <c>.png',
      'embedded.mobileprovision',
      'zh-Hans.lproj/Localizable.strings',
    ]);
    expect(resources.files2.get('zh-Hans.lproj/Localizable.strings')).toMatchObject({ optional: true, hash: null });
    expect(resources.files.get('zh-Hans.lproj/Localizable.strings')).toMatchObject({ optional: true });
    expect(resources.rules2.map((rule) => rule.pattern)).toContain('^PkgInfo$');
    expect(checkSealedFiles(resources, bundle, 'Demo')).toEqual({
      mismatched: [],
      missing: [],
      unsealed: [],
      nested: [],
    });
  });

  it('adds SHA-1 hashes to files2 for code that still supports SHA-1', () => {
    const resources = parseCodeResources(buildCodeResources(bundle, 'Demo', { withSha1: true }))!;
    expect(resources.files2.get('Assets.car')?.hash?.length).toBe(20);
    expect(resources.files2.get('Assets.car')?.hash2?.length).toBe(32);
  });
});
