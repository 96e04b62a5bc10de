import { describe, expect, it } from 'vitest';
import { BundleIdMessages, appBundleIdsInput, mainBundleId, parseBundleIds } from './bundle-ids.ts';

describe('bundle ids per platform', () => {
  it('says both ids the way people write them', () => {
    expect(BundleIdMessages.mismatch('android', ['com.a'], 'com.b')).toBe(
      '包名不一致：该应用的 Android 包名为 com.a，此安装包为 com.b',
    );
    expect(BundleIdMessages.mismatch('ios', ['com.a', 'com.a.free'], 'com.b')).toBe(
      '包名不一致：该应用的 iOS Bundle ID 为 com.a、com.a.free，此安装包为 com.b',
    );
    expect(BundleIdMessages.mismatch('mac', ['com.m'], 'com.n')).toBe(
      '包名不一致：该应用的 Mac Bundle ID 为 com.m，此安装包为 com.n',
    );
  });

  it('reads stored ids leniently and names the main one iOS first', () => {
    expect(parseBundleIds('{}')).toEqual({ ios: [], android: [], mac: [], harmony: [] });
    expect(parseBundleIds('not json')).toEqual({ ios: [], android: [], mac: [], harmony: [] });
    const ids = parseBundleIds('{"android":["com.a"],"mac":["com.m"]}');
    expect(mainBundleId(ids)).toBe('com.a');
    expect(mainBundleId({ ...ids, ios: ['com.i'] })).toBe('com.i');
    expect(mainBundleId(parseBundleIds(null))).toBeNull();
    expect(mainBundleId(parseBundleIds('{"harmony":["com.h"]}'))).toBe('com.h');
  });

  it('trims, drops repeats and refuses what is not an id', () => {
    expect(appBundleIdsInput.parse({ ios: [' com.a ', 'com.a', 'com.b'] })).toEqual({
      ios: ['com.a', 'com.b'],
      android: [],
      mac: [],
      harmony: [],
    });
    for (const bad of ['com a', '', '.com', 'com/a', 'x'.repeat(256)])
      expect(appBundleIdsInput.safeParse({ android: [bad] }).success).toBe(false);
    expect(appBundleIdsInput.safeParse({ mac: Array.from({ length: 21 }, (_, i) => `com.a${i}`) }).success).toBe(false);
  });
});
