import { afterAll, describe, expect, it } from 'vitest';
import { crossedThresholds, diffPackageFacts, type PackageFacts } from '@release/contract';
import { inspectPackage } from './package-inspector.ts';
import { sampleHap, sampleHarmonyApp } from './testing/hap-builder.ts';
import { createTempDir } from './testing/temp-files.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

async function factsOf(bytes: Buffer, name: string): Promise<PackageFacts> {
  const inspection = await inspectPackage(temp.write(name, bytes), { declaredName: name });
  if (!inspection.facts) throw new Error('no facts');
  return inspection.facts as PackageFacts;
}

const part = (facts: PackageFacts, key: string) => facts.size.parts.find((p) => p.key === key);

describe('package facts of HarmonyOS builds (issue 19)', () => {
  it('reads a .hap: native libraries per ABI, ArkTS code, requested permissions, API levels and the signer', async () => {
    const facts = await factsOf(
      sampleHap({
        permissions: ['ohos.permission.INTERNET', 'ohos.permission.CAMERA'],
        nativeLibs: { 'arm64-v8a/libgame.so': 40_000 },
      }),
      'game.hap',
    );
    expect(facts.permissions).toEqual(['ohos.permission.CAMERA', 'ohos.permission.INTERNET']);
    expect(part(facts, 'native:arm64-v8a')).toMatchObject({ size: 40_000, files: 1 });
    expect(part(facts, 'code')?.files).toBe(1);
    expect(part(facts, 'resources')?.files).toBeGreaterThan(1);
    expect(facts.dylibs).toEqual(['libgame.so']);
    expect([facts.minOs, facts.targetSdk, facts.buildSdk]).toEqual(['5.0.5(17)', '5.0.5(17)', '5.0.5.165']);
    expect(facts.signing?.certificate).toMatch(/^[0-9a-f]{64}$/);
    expect(facts.signing?.profileType).not.toBeNull();
  });

  it('a packed .app sums its modules: every module’s permissions and sizes, the others listed as embedded', async () => {
    const facts = await factsOf(
      sampleHarmonyApp({
        'entry-default-signed.hap': sampleHap({ dependencies: ['lib'], permissions: ['ohos.permission.INTERNET'] }),
        'lib-default-signed.hsp': sampleHap({
          moduleName: 'lib',
          moduleType: 'shared',
          permissions: ['ohos.permission.MICROPHONE'],
          nativeLibs: { 'arm64-v8a/libaudio.so': 30_000 },
        }),
      }),
      'game.app',
    );
    expect(facts.permissions).toEqual(['ohos.permission.INTERNET', 'ohos.permission.MICROPHONE']);
    expect(facts.extensions).toEqual(['lib (shared)']);
    expect(part(facts, 'native:arm64-v8a')?.size).toBe(30_000);
    expect(part(facts, 'code')?.files).toBe(2);
    expect(facts.dylibs).toEqual(['libaudio.so']);
  });

  it('diffs two builds: a new user_grant permission is sensitive, a new system_grant one is not; the API level raised', async () => {
    const older = await factsOf(sampleHap({ permissions: ['ohos.permission.INTERNET'] }), 'a.hap');
    const newer = await factsOf(
      sampleHap({
        permissions: [
          'ohos.permission.INTERNET',
          'ohos.permission.LOCATION',
          'ohos.permission.KEEP_BACKGROUND_RUNNING',
        ],
        minApiVersion: 50100018,
      }),
      'b.hap',
    );
    const diff = diffPackageFacts(older, newer);
    expect(diff.permissions).toEqual({
      added: ['ohos.permission.KEEP_BACKGROUND_RUNNING', 'ohos.permission.LOCATION'],
      removed: [],
      dangerousAdded: ['ohos.permission.LOCATION'],
    });
    expect(diff.minOs).toEqual({ from: '5.0.5(17)', to: '5.1.0(18)', raised: true });
    expect(
      crossedThresholds(diff, {
        sizePercent: null,
        sizeMb: null,
        dangerousPermission: true,
        certificate: true,
        minOsRaised: true,
      }),
    ).toEqual(['新增敏感权限 ohos.permission.LOCATION', '最低系统版本提高到 5.1.0(18)']);
  });
});
