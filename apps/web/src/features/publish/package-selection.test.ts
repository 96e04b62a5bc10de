import { describe, expect, it } from 'vitest';
import { keptPackages } from './package-selection.ts';

const named = (...names: string[]) => names.map((name) => ({ name }));

describe('keptPackages', () => {
  it('keeps the last file picked, or every HarmonyOS module picked with it as one version', () => {
    expect(keptPackages(named('a.ipa', 'b.apk'))).toEqual(named('b.apk'));
    expect(keptPackages(named('a.apk', 'entry.hap', 'lib.HSP', 'feature.hap'))).toEqual(
      named('entry.hap', 'lib.HSP', 'feature.hap'),
    );
    // A packed .app is a whole version already: alone, like any other package.
    expect(keptPackages(named('entry.hap', 'shop.app'))).toEqual(named('shop.app'));
    expect(keptPackages(named('entry.hap', 'shop.app', 'entry.hap'))).toEqual(named('entry.hap'));
    expect(keptPackages([])).toEqual([]);
  });

  it('keeps a module picked twice once, and at most 32 modules', () => {
    expect(keptPackages(named('entry.hap', 'lib.hsp', 'entry.hap'))).toEqual(named('lib.hsp', 'entry.hap'));
    const many = Array.from({ length: 40 }, (_, i) => `m${i}.hap`);
    const kept = keptPackages(named(...many));
    expect([kept.length, kept[0]?.name, kept.at(-1)?.name]).toEqual([32, 'm8.hap', 'm39.hap']);
  });
});
