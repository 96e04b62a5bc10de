import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { xmlPlist } from '@release/inspect/testing/packages.ts';
import { checkSealedFiles, parseCodeResources, ruleFor } from './code-resources.ts';

const sha1 = (data: Buffer) => new Uint8Array(createHash('sha1').update(data).digest());
const sha256 = (data: Buffer) => new Uint8Array(createHash('sha256').update(data).digest());

// Xcode's default rules2 (as in every fixture ipa).
const rules2 = {
  '.*\\.dSYM($|/)': { weight: 11 },
  '^(.*/)?\\.DS_Store$': { omit: true, weight: 2000 },
  '^.*': true,
  '^.*\\.lproj/': { optional: true, weight: 1000 },
  '^.*\\.lproj/locversion.plist$': { omit: true, weight: 1100 },
  '^Base\\.lproj/': { weight: 1010 },
  '^Info\\.plist$': { omit: true, weight: 20 },
  '^PkgInfo$': { omit: true, weight: 20 },
  '^embedded\\.provisionprofile$': { weight: 20 },
  '^version\\.plist$': { weight: 20 },
};

const bundle = new Map<string, Buffer>([
  ['Demo', Buffer.from('main executable')],
  ['Info.plist', Buffer.from('<plist/>')],
  ['PkgInfo', Buffer.from('APPL????')],
  ['embedded.mobileprovision', Buffer.from('profile')],
  ['Base.lproj/Main.storyboardc/Info.plist', Buffer.from('storyboard')],
  ['zh-Hans.lproj/Localizable.strings', Buffer.from('"a" = "甲";')],
  ['_CodeSignature/CodeResources', Buffer.from('itself')],
]);

function sealFor(files: Map<string, Buffer>, extra: Record<string, unknown> = {}) {
  const sealed = [
    'embedded.mobileprovision',
    'Base.lproj/Main.storyboardc/Info.plist',
    'zh-Hans.lproj/Localizable.strings',
  ];
  return xmlPlist({
    files: Object.fromEntries(sealed.map((path) => [path, sha1(files.get(path)!)])),
    files2: {
      ...Object.fromEntries(
        sealed.map((path) => [
          path,
          path.includes('.lproj/') && !path.startsWith('Base')
            ? { hash2: sha256(files.get(path)!), optional: true }
            : { hash2: sha256(files.get(path)!) },
        ]),
      ),
      ...extra,
    },
    rules: {},
    rules2,
  } as never);
}

describe('CodeResources', () => {
  it('reads files, files2 and the rules; the heaviest matching rule governs a path', () => {
    const resources = parseCodeResources(sealFor(bundle))!;
    expect([...resources.files2.keys()].sort()).toEqual([
      'Base.lproj/Main.storyboardc/Info.plist',
      'embedded.mobileprovision',
      'zh-Hans.lproj/Localizable.strings',
    ]);
    expect(resources.files.get('embedded.mobileprovision')?.hash?.length).toBe(20);
    expect(resources.files2.get('zh-Hans.lproj/Localizable.strings')?.optional).toBe(true);
    expect(ruleFor(resources.rules2, 'Info.plist')?.omit).toBe(true);
    expect(ruleFor(resources.rules2, 'a/b/.DS_Store')?.pattern).toBe('^(.*/)?\\.DS_Store$');
    expect(ruleFor(resources.rules2, 'Base.lproj/x')?.weight).toBe(1010);
    expect(ruleFor(resources.rules2, 'Frameworks/X.framework/X')?.pattern).toBe('^.*');
    const older = parseCodeResources(
      xmlPlist({ rules2: { '^': { weight: 20 }, '^Info\\.plist$': { omit: true, weight: 20 } } }),
    )!;
    expect(ruleFor(older.rules2, 'Info.plist')?.omit).toBe(true);
    expect(ruleFor(older.rules2, 'Assets.car')?.pattern).toBe('^');
  });

  it('passes a bundle that matches its seal', () => {
    expect(checkSealedFiles(parseCodeResources(sealFor(bundle))!, bundle, 'Demo')).toEqual({
      mismatched: [],
      missing: [],
      unsealed: [],
      nested: [],
    });
  });

  it('reports a changed file, a missing one (unless optional), and a file nobody sealed', () => {
    const resources = parseCodeResources(
      sealFor(bundle, { 'Frameworks/Kit.framework': { cdhash: new Uint8Array(20), requirement: 'cdhash H"00"' } }),
    )!;
    const changed = new Map(bundle);
    changed.set('embedded.mobileprovision', Buffer.from('another profile'));
    changed.delete('Base.lproj/Main.storyboardc/Info.plist');
    changed.delete('zh-Hans.lproj/Localizable.strings');
    changed.set('injected.dylib', Buffer.from('evil'));
    changed.set('.DS_Store', Buffer.from('finder'));
    changed.set('Frameworks/Kit.framework/Kit', Buffer.from('nested code'));
    expect(checkSealedFiles(resources, changed, 'Demo')).toEqual({
      mismatched: ['embedded.mobileprovision'],
      missing: ['Base.lproj/Main.storyboardc/Info.plist'],
      unsealed: ['injected.dylib'],
      nested: ['Frameworks/Kit.framework'],
    });
  });

  it('answers null for what is not a plist', () => {
    expect(parseCodeResources(Buffer.from('not a plist'))).toBeNull();
  });
});
