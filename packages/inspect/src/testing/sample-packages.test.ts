import { afterAll, describe, expect, it } from 'vitest';
import { inspectPackage } from '../package-inspector.ts';
import { sampleApk, sampleIpa, sampleSignerSha256 } from './sample-packages.ts';
import { createTempDir } from './temp-files.ts';
import { DAY_MS } from './validity.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

describe('sample packages used by integration and browser tests', () => {
  it('the sample ipa inspects to its version, icon and ad-hoc profile', async () => {
    const result = await inspectPackage(temp.write('demo.ipa', sampleIpa({ version: '3.1.0', build: '310' })), {
      declaredName: 'demo.ipa',
    });
    expect(result).toMatchObject({
      kind: 'ipa',
      bundleId: 'com.example.demo',
      version: '3.1.0',
      build: '310',
      displayName: '演示应用',
      warnings: [],
    });
    if (result.kind !== 'ipa') throw new Error('not an ipa');
    expect(result.icon).toMatchObject({ format: 'png', width: 180, convertedFrom: 'cgbi' });
    expect(result.provisioningProfile).toMatchObject({ type: 'ad-hoc', teamId: 'TEAM123456' });
  });
  it('the sample ipa is current, as a typical upload is, and expired only when a test says so', async () => {
    const now = Date.now();
    const expiry = async (options: Parameters<typeof sampleIpa>[0]) => {
      const result = await inspectPackage(temp.write('dated.ipa', sampleIpa(options)), { declaredName: 'dated.ipa' });
      if (result.kind !== 'ipa') throw new Error('not an ipa');
      return [result.provisioningProfile?.createdAt?.getTime(), result.provisioningProfile?.expiresAt?.getTime()];
    };
    const [created, expires] = await expiry({});
    expect(created).toBeLessThan(now);
    expect(expires).toBeGreaterThan(now + 300 * DAY_MS);
    const expiredAt = new Date(Math.floor(now / 1000) * 1000 - DAY_MS);
    expect((await expiry({ expiresAt: expiredAt }))[1]).toBe(expiredAt.getTime());
  });
  it('the sample apk inspects to its label, versions, icon and signer', async () => {
    const result = await inspectPackage(temp.write('shop.apk', sampleApk({ versionName: '2.0.1 [RC]' })), {
      declaredName: 'shop.apk',
    });
    expect(result).toMatchObject({
      kind: 'apk',
      packageName: 'com.example.shop',
      versionName: '2.0.1 [RC]',
      versionCode: 7,
      label: '商城',
    });
    if (result.kind !== 'apk') throw new Error('not an apk');
    expect(result.icon).toMatchObject({ format: 'png', width: 144 });
    expect(result.signatures.signers[0]?.sha256).toBe(sampleSignerSha256());
  });
});
