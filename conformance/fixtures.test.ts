/**
 * Conformance of the package inspectors against real packages (../shared/fixtures, or FIXTURES_DIR).
 * Expected values are those recorded in fixtures/SOURCES.md (read there with aapt, apksigner, openssl, plistlib).
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inspectMobileprovision, inspectPackage, PackageInspectionError } from '@release/inspect';
import type { PackageIcon, PackageInspection, ProvisioningProfile } from '@release/inspect';
import { apkExpectations, ipaExpectations, otherExpectations, profileExpectations } from './fixture-expectations.ts';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const fixturesDir = resolve(repoRoot, process.env.FIXTURES_DIR ?? '../shared/fixtures');

function filesIn(folder: string): string[] {
  return readdirSync(join(fixturesDir, folder))
    .filter((name) => !name.startsWith('.'))
    .sort();
}

const day = (date: Date | null | undefined) => date?.toISOString().slice(0, 10) ?? null;

function summarizeProfile(profile: ProvisioningProfile | null) {
  if (!profile) return null;
  return {
    name: profile.name,
    type: profile.type,
    teamId: profile.teamId,
    teamName: profile.teamName,
    platforms: profile.platforms,
    expires: day(profile.expiresAt),
    devices: profile.provisionedDevices.length,
    provisionsAllDevices: profile.provisionsAllDevices,
    betaReportsActive: profile.betaReportsActive,
    certificates: profile.developerCertificates.length,
    certificateNames: profile.developerCertificates.map((certificate) => certificate.commonName),
    isSigned: profile.isSigned,
  };
}

function summarizeIcon(icon: PackageIcon | null) {
  return icon ? { format: icon.format, width: icon.width, convertedFrom: icon.convertedFrom } : null;
}

/** A flat, comparable view of an inspection: dates as days, long lists as counts, fingerprints kept whole. */
function summarize(result: PackageInspection) {
  switch (result.kind) {
    case 'ipa':
      return {
        kind: result.kind,
        bundleId: result.bundleId,
        version: result.version,
        build: result.build,
        minimumOsVersion: result.minimumOsVersion,
        platform: result.platform,
        deviceFamilies: result.deviceFamilies,
        nestedBundles: result.nestedBundles.map((bundle) => bundle.bundleId),
        icon: summarizeIcon(result.icon),
        profile: summarizeProfile(result.provisioningProfile),
        warnings: result.warnings,
      };
    case 'apk':
    case 'aab':
      return {
        kind: result.kind,
        packageName: result.packageName,
        versionCode: result.versionCode,
        versionName: result.versionName,
        minSdkVersion: result.minSdkVersion,
        targetSdkVersion: result.targetSdkVersion,
        label: result.label,
        localizedLabels: result.localizedLabels,
        labelCount: Object.keys(result.localizedLabels).length,
        permissionCount: result.permissions.length,
        deviceType: result.deviceType,
        icon: result.kind === 'apk' ? summarizeIcon(result.icon) : null,
        schemes: result.signatures.schemes,
        signers: result.signatures.signers.map((signer) => ({
          commonName: signer.commonName,
          sha256: signer.sha256,
          schemes: signer.schemes,
        })),
      };
    case 'mac':
      return {
        kind: result.kind,
        bundleId: result.bundleId,
        version: result.version,
        build: result.build,
        minimumOsVersion: result.minimumOsVersion,
        icon: summarizeIcon(result.icon),
        profile: summarizeProfile(result.provisioningProfile),
      };
    case 'zip':
    case 'html':
      return { kind: result.kind };
  }
}

async function expectDecodablePng(icon: PackageIcon | null) {
  if (!icon) return;
  const metadata = await sharp(icon.data).metadata();
  expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', icon.width, icon.height]);
}

describe.each(['ipa', 'apk', 'aab', 'mac'])('fixtures/%s', (folder) => {
  const table = { ...ipaExpectations, ...apkExpectations, ...otherExpectations };

  it('has an expectation for every file', () => {
    expect(filesIn(folder).filter((name) => !(name in table))).toEqual([]);
  });

  it.each(filesIn(folder))('%s', async (name) => {
    const expected = table[name];
    const path = join(fixturesDir, folder, name);
    if (expected && 'rejected' in expected) {
      const error = await inspectPackage(path, { declaredName: name }).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(PackageInspectionError);
      expect(error instanceof PackageInspectionError ? error.reason : null).toBe(expected.rejected);
      return;
    }
    const result = await inspectPackage(path, { declaredName: name });
    expect(summarize(result)).toMatchObject(expected ?? {});
    if ('icon' in result) await expectDecodablePng(result.icon);
  });
});

describe('fixtures/mobileprovision', () => {
  it('has an expectation for every file', () => {
    expect(filesIn('mobileprovision').filter((name) => !(name in profileExpectations))).toEqual([]);
  });

  it.each(filesIn('mobileprovision'))('%s', (name) => {
    const profile = inspectMobileprovision(readFileSync(join(fixturesDir, 'mobileprovision', name)));
    expect(summarizeProfile(profile)).toMatchObject(profileExpectations[name] ?? {});
  });

  it('isign test profile lists the very certificate that signs with it', () => {
    const credentials = join(fixturesDir, 'other', 'isign-credentials');
    const profile = inspectMobileprovision(readFileSync(join(credentials, 'test.mobileprovision')));
    const certificate = new X509Certificate(readFileSync(join(credentials, 'test.cert.pem')));
    const sha1 = createHash('sha1').update(certificate.raw).digest('hex').toUpperCase();
    expect(summarizeProfile(profile)).toMatchObject({
      name: 'RDC-Dev',
      type: 'development',
      teamId: 'ISIGNTESTS',
      devices: 2,
    });
    expect(profile.developerCertificates[0]?.sha1).toBe(sha1);
    expect(profile.developerCertificates[0]?.commonName).toBe('isign_tests');
  });
});

describe('renamed fixtures are caught by content', () => {
  it.each([
    ['apk/androguard-com.politedroid_4.apk', 'politedroid.ipa', '扩展名为.ipa但内容是Android安装包'],
    ['ipa/isign-Test.ipa', 'Test.apk', '扩展名为.apk但内容是iOS安装包'],
  ])('%s uploaded as %s', async (file, declaredName, message) => {
    await expect(inspectPackage(join(fixturesDir, file), { declaredName })).rejects.toMatchObject({
      reason: 'kindMismatch',
      message,
    });
  });
});
