/**
 * Conformance of the HarmonyOS inspector against the real modules of ../shared/fixtures/hap (SOURCES.md, "hap/"):
 * an entry module and its shared module of `com.dc.testapp1` 1.0.1, signed with a Huawei-issued Release
 * certificate, and the internal-distribution manifest whose packageHash values are the files' SHA-256.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  type HapInspection,
  harmonyPublicKey,
  inspectPackage,
  packageIdentity,
  verifyHarmonyManifest,
} from '@release/inspect';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const hapDir = join(resolve(repoRoot, process.env.FIXTURES_DIR ?? '../shared/fixtures'), 'hap');
const ENTRY = 'hpackdemo-entry-default-signed.hap';
const SHARED = 'hpackdemo-hsp1-default-signed.hsp';

async function inspectFixture(name: string): Promise<HapInspection> {
  const inspection = await inspectPackage(join(hapDir, name), { declaredName: name });
  if (inspection.kind !== 'hap' && inspection.kind !== 'hsp') throw new Error(`${name}: ${inspection.kind}`);
  return inspection;
}

const day = (date: Date | null | undefined) => date?.toISOString().slice(0, 10) ?? null;
/** The certificate's CN as its DER holds it: Huawei writes the comma before "Release" escaped (`\,`). */
const RELEASE_CN = '西安点测网络科技有限公司(1702114169546907329)\\,Release';

describe('HarmonyOS fixtures (SOURCES.md hap/)', () => {
  it('entry module: app, version, label from resources.index, devices, API levels, debug build, dependencies', async () => {
    const entry = await inspectFixture(ENTRY);
    expect({
      kind: entry.kind,
      bundleName: entry.bundleName,
      bundleType: entry.bundleType,
      versionName: entry.versionName,
      versionCode: entry.versionCode,
      label: entry.label,
      deviceTypes: entry.deviceTypes,
      minApiVersion: entry.minApiVersion,
      targetApiVersion: entry.targetApiVersion,
      debug: entry.debug,
      buildMode: entry.buildMode,
      modules: entry.modules,
      warnings: entry.warnings,
    }).toEqual({
      kind: 'hap',
      bundleName: 'com.dc.testapp1',
      bundleType: 'app',
      versionName: '1.0.1',
      versionCode: 1000001,
      // `$string:app_name` (labelId 16777216) in the base configuration of resources.index.
      label: 'testapp1',
      deviceTypes: ['phone', 'tablet', '2in1'],
      minApiVersion: '5.0.5(17)',
      targetApiVersion: '5.0.5(17)',
      debug: true,
      buildMode: 'debug',
      modules: [
        {
          name: 'entry',
          type: 'entry',
          deviceTypes: ['phone', 'tablet', '2in1'],
          dependencies: ['hsp1'],
          fileName: null,
        },
      ],
      warnings: [],
    });
    expect(packageIdentity(entry)).toMatchObject({ platform: 'harmony', version: '1.0.1', build: '1000001' });
    // The build stops installing with its profile (2026-01-03), before its certificate (2028-07-03).
    expect(day(packageIdentity(entry).expiresAt)).toBe('2026-01-03');
  });

  it('entry module: the layered icon (layered_image.json) drawn foreground over background, 512 px', async () => {
    const { icon } = await inspectFixture(ENTRY);
    expect(icon).toMatchObject({ format: 'png', width: 512, height: 512, convertedFrom: 'adaptive-layers' });
    const meta = await sharp(icon?.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
  });

  it('signature: the Huawei-issued Release certificate, its chain to Huawei CBG Root CA G2, valid to 2028-07-03', async () => {
    const { signature } = await inspectFixture(ENTRY);
    expect(signature?.certificate?.commonName).toBe(RELEASE_CN);
    expect(
      signature?.chain.map((cert) => [cert.commonName, cert.issuer.replace(/^.*CN=/, ''), day(cert.validTo)]),
    ).toEqual([
      [RELEASE_CN, 'Huawei CBG Developer Relations CA G2', '2028-07-03'],
      ['Huawei CBG Developer Relations CA G2', 'Huawei CBG Root CA G2', '2030-07-07'],
      ['Huawei CBG Root CA G2', 'Huawei CBG Root CA G2', '2049-03-16'],
    ]);
  });

  it('profile: signed by "HOS Profile Management", a release profile for internal testing with one device', async () => {
    const { profile, signature } = await inspectFixture(ENTRY);
    expect({
      type: profile?.type,
      declaredType: profile?.declaredType,
      distributionType: profile?.distributionType,
      bundleName: profile?.bundleName,
      devices: profile?.devices,
      validTo: day(profile?.validTo),
      signer: profile?.signer?.commonName,
      certificate: profile?.certificate?.sha256,
    }).toEqual({
      type: 'release',
      declaredType: 'release',
      distributionType: 'internaltesting',
      bundleName: 'com.dc.testapp1',
      devices: ['5C653C1048E60188BFC94379386643716EFD850BAF557C4DB8C83EA47D5677F4'],
      validTo: '2026-01-03',
      signer: 'HOS Profile Management',
      // The profile names the certificate the module is signed with.
      certificate: signature?.certificate?.sha256,
    });
  });

  it('shared module: hsp1 of the same app and version, type shared, no dependencies, same signer', async () => {
    const [entry, shared] = [await inspectFixture(ENTRY), await inspectFixture(SHARED)];
    expect([shared.kind, shared.bundleName, shared.versionCode, shared.modules]).toEqual([
      'hsp',
      'com.dc.testapp1',
      1000001,
      [{ name: 'hsp1', type: 'shared', deviceTypes: ['phone', 'tablet', '2in1'], dependencies: [], fileName: null }],
    ]);
    expect(shared.signature?.certificate?.sha256).toBe(entry.signature?.certificate?.sha256);
  });

  it('the manifest (before and after signing) names both modules with their SHA-256 and the app as inspected', async () => {
    const entry = await inspectFixture(ENTRY);
    for (const file of ['hpackdemo-unsign_manifest.json5', 'hpackdemo-manifest.json5']) {
      const manifest = JSON.parse(readFileSync(join(hapDir, file), 'utf8'));
      expect(manifest.app).toMatchObject({
        bundleName: entry.bundleName,
        versionCode: entry.versionCode,
        versionName: entry.versionName,
        minAPIVersion: entry.minApiVersion,
        targetAPIVersion: entry.targetApiVersion,
      });
      const hashes = manifest.app.modules.map((module: { name: string; packageHash: string }) => [
        module.name,
        module.packageHash,
      ]);
      const sha256 = (name: string) =>
        createHash('sha256')
          .update(readFileSync(join(hapDir, name)))
          .digest('hex');
      expect(hashes).toEqual([
        ['entry', sha256(ENTRY)],
        ['hsp1', sha256(SHARED)],
      ]);
    }
  });

  it('the signed manifest’s sign verifies with the key of the Release certificate both modules are signed with', async () => {
    const [entry, shared] = [await inspectFixture(ENTRY), await inspectFixture(SHARED)];
    const signed = JSON.parse(readFileSync(join(hapDir, 'hpackdemo-manifest.json5'), 'utf8'));
    const unsigned = JSON.parse(readFileSync(join(hapDir, 'hpackdemo-unsign_manifest.json5'), 'utf8'));
    const key = harmonyPublicKey(entry.signature?.publicKey ?? '');
    expect([key.asymmetricKeyType, key.asymmetricKeyDetails?.namedCurve]).toEqual(['ec', 'prime256v1']);
    expect(shared.signature?.publicKey).toBe(entry.signature?.publicKey);
    expect(verifyHarmonyManifest(signed.app, signed.sign, key)).toBe(true);
    // The manifest before signing (indented, its own field order) signs the same bytes.
    expect(verifyHarmonyManifest(unsigned.app, signed.sign, key)).toBe(true);
    // packageUrl, deployDomain and icons are not signed; the app's and modules' other fields are.
    const served = {
      ...signed.app,
      deployDomain: 'release.example',
      icons: { normal: 'https://release.example/icon.png', large: 'https://release.example/icon.png' },
      modules: signed.app.modules.map((m: object, i: number) => ({
        ...m,
        packageUrl: `https://release.example/m${i}`,
      })),
    };
    expect(verifyHarmonyManifest(served, signed.sign, key)).toBe(true);
    const [first, second] = signed.app.modules as Record<string, unknown>[];
    for (const tampered of [
      { ...signed.app, label: 'hpack2' },
      { ...signed.app, versionName: '1.0.2' },
      { ...signed.app, modules: [{ ...first, packageHash: 'ab'.repeat(32) }, second] },
      { ...signed.app, modules: [{ ...first, deviceTypes: ['phone', 'tablet', '2in1'] }, second] },
      { ...signed.app, modules: [second, first] },
    ])
      expect(verifyHarmonyManifest(tampered, signed.sign, key)).toBe(false);
  });
});
