import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { crossedThresholds, diffPackageFacts, type PackageFacts } from '@release/contract';
import { inspectPackage } from './package-inspector.ts';
import {
  sampleAab,
  sampleApk,
  sampleIpa,
  sampleOtherSignerSha256,
  sampleSignerSha256,
} from './testing/sample-packages.ts';
import { createTempDir } from './testing/temp-files.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

/** Random bytes do not compress: a part of this many bytes takes about as many in the file. */
const noise = (bytes: number) => randomBytes(bytes);

async function factsOf(bytes: Buffer, name: string): Promise<PackageFacts> {
  const inspection = await inspectPackage(temp.write(name, bytes), { declaredName: name });
  if (!inspection.facts) throw new Error('no facts');
  return inspection.facts as PackageFacts;
}

const part = (facts: PackageFacts, key: string) => facts.size.parts.find((p) => p.key === key);

describe('package facts (issue 19)', () => {
  it('reads an apk: sizes by ABI, dex, assets and resources, permissions, SDKs and the v2 signer', async () => {
    const facts = await factsOf(
      sampleApk({
        permissions: ['android.permission.INTERNET', 'android.permission.CAMERA'],
        minSdkVersion: 24,
        extra: {
          'lib/arm64-v8a/libgame.so': noise(40_000),
          'lib/armeabi-v7a/libgame.so': noise(30_000),
          'assets/level1.bundle': noise(20_000),
        },
      }),
      'shop.apk',
    );
    expect(facts.permissions).toEqual(['android.permission.CAMERA', 'android.permission.INTERNET']);
    expect([facts.minOs, facts.targetSdk]).toEqual(['API 24', 'API 34']);
    expect(facts.signing).toMatchObject({ scheme: 'v2', certificate: sampleSignerSha256() });
    expect(facts.dylibs).toEqual(['libgame.so']);
    // The biggest part first; each within the zip's per-entry overhead of its bytes.
    expect(facts.size.parts[0]?.key).toBe('native:arm64-v8a');
    expect(part(facts, 'native:arm64-v8a')?.size).toBeGreaterThanOrEqual(40_000);
    expect(part(facts, 'native:armeabi-v7a')?.size).toBeGreaterThanOrEqual(30_000);
    expect(part(facts, 'assets')?.size).toBeGreaterThanOrEqual(20_000);
    expect(part(facts, 'code')?.files).toBe(1);
    expect(part(facts, 'resources')?.files).toBe(3);
    expect(facts.size.parts.reduce((sum, p) => sum + p.size, 0)).toBeLessThan(facts.size.total);
  });

  it('reads an ipa: usage descriptions, entitlements, minimum OS, frameworks, extensions and the profile', async () => {
    const facts = await factsOf(
      sampleIpa({
        minimumOsVersion: '15.0',
        usageDescriptions: { NSCameraUsageDescription: '扫码', NSMicrophoneUsageDescription: '语音' },
        extra: {
          'Frameworks/Unity.framework/Unity': noise(30_000),
          'Frameworks/libswiftCore.dylib': noise(1_000),
          'PlugIns/Share.appex/Share': noise(2_000),
          'Assets.car': noise(10_000),
        },
      }),
      'demo.ipa',
    );
    expect(facts.permissions).toEqual(['NSCameraUsageDescription', 'NSMicrophoneUsageDescription']);
    expect(facts.entitlements).toContain('get-task-allow');
    expect(facts.minOs).toBe('15.0');
    expect(facts.frameworks).toEqual(['Unity.framework']);
    expect(facts.extensions).toEqual(['Share.appex']);
    expect(facts.dylibs).toEqual(['libswiftCore.dylib']);
    expect(facts.signing).toMatchObject({ profileType: 'ad-hoc', teamId: expect.any(String) });
    expect(facts.size.parts.map((p) => p.key).slice(0, 2)).toEqual(['frameworks', 'assets']);
    expect(part(facts, 'extensions')?.size).toBeGreaterThanOrEqual(2_000);
    expect(part(facts, 'executable')?.files).toBe(1);
  });

  it('reads an aab through its base module', async () => {
    const facts = await factsOf(sampleAab(), 'shop.aab');
    expect(part(facts, 'code')?.files).toBe(1);
    expect(facts.minOs).toBe('API 24');
  });

  it('diffs two builds: size by part (biggest movers first), permissions, minimum OS, a changed certificate', async () => {
    const older = await factsOf(
      sampleApk({
        permissions: ['android.permission.INTERNET'],
        extra: { 'lib/arm64-v8a/libgame.so': noise(20_000), 'assets/a.bin': noise(5_000) },
      }),
      'a.apk',
    );
    const newer = await factsOf(
      sampleApk({
        permissions: ['android.permission.INTERNET', 'android.permission.CAMERA', 'android.permission.VIBRATE'],
        minSdkVersion: 26,
        otherSigner: true,
        extra: { 'lib/arm64-v8a/libgame.so': noise(60_000), 'assets/a.bin': noise(1_000) },
      }),
      'b.apk',
    );
    const diff = diffPackageFacts(older, newer);
    expect(diff.size.parts.map((p) => p.key).slice(0, 2)).toEqual(['native:arm64-v8a', 'assets']);
    expect(diff.size.parts[1]?.delta).toBeLessThan(0);
    expect(diff.permissions).toEqual({
      added: ['android.permission.CAMERA', 'android.permission.VIBRATE'],
      removed: [],
      dangerousAdded: ['android.permission.CAMERA'],
    });
    expect(diff.minOs).toEqual({ from: 'API 21', to: 'API 26', raised: true });
    expect(diff.certificateChanged).toBe(true);
    expect(diff.signing.to?.certificate).toBe(sampleOtherSignerSha256());
    expect(
      crossedThresholds(diff, {
        sizePercent: 50,
        sizeMb: null,
        dangerousPermission: true,
        certificate: true,
        minOsRaised: true,
      }),
    ).toEqual([
      expect.stringMatching(/^体积增加 \d+ KB（\+\d+\.\d%）$/),
      '新增敏感权限 CAMERA',
      '签名证书已更换，测试人员无法覆盖安装',
      '最低系统版本提高到 API 26',
    ]);
    // Nothing watched, or a build that shrank: no marks.
    expect(crossedThresholds(diffPackageFacts(newer, older), { ...noThresholds, sizePercent: 1 })).toEqual([]);
  });
});

const noThresholds = {
  sizePercent: null,
  sizeMb: null,
  dangerousPermission: false,
  certificate: false,
  minOsRaised: false,
};
