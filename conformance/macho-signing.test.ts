/**
 * The signer's pieces over the fixture binaries, with the isign test identity (a certificate, its key and a
 * profile listing it): the CMS alone over a fixture CodeDirectory, then every signed binary of the fixture ipas
 * (thin and FAT, apps, an app extension, a framework) re-signed, and both the original and the result passing
 * the verifier; then each whole app re-signed (nested bundles first, profile per bundle, CodeResources) and
 * verified. Installing needs an Apple-issued identity; this proves the format.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openP12 } from '@release/inspect/p12.ts';
import { openZipIndex } from '@release/inspect/zip-index.ts';
import { signCodeDirectories } from '../apps/server/src/signing/cms-sign.ts';
import { verifyCodeDirectoryCms } from '../apps/server/src/signing/cms-verify.ts';
import { readEmbeddedSignature } from '../apps/server/src/signing/code-signature.ts';
import { encodeDerEntitlements } from '../apps/server/src/signing/der-entitlements.ts';
import { parseMachO, sliceBytes } from '../apps/server/src/signing/macho.ts';
import { signMachO } from '../apps/server/src/signing/macho-signer.ts';
import { decodeRequirement } from '../apps/server/src/signing/requirements.ts';
import { verifyMachO } from '../apps/server/src/signing/verify-macho.ts';
import { resignApp } from '../apps/server/src/signing/bundle-signer.ts';
import { verifyApp } from '../apps/server/src/signing/verify-app.ts';
import { makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { makeIdentity } from '@release/inspect/testing/signing.ts';
import { expectations, fixturesDir, optional } from './macho-expectations.ts';

describe('the isign test identity signs a fixture binary', () => {
  it("its CMS over isign-Test.ipa's CodeDirectory carries Apple's attributes and verifies", async () => {
    const zip = await openZipIndex(resolve(fixturesDir, 'ipa', 'isign-Test.ipa'));
    const bytes = await zip.readEntry('Payload/IsignTestApp.app/IsignTestApp');
    await zip.close();
    const slice = parseMachO(bytes).slices[0];
    const directories = slice ? (readEmbeddedSignature(bytes, slice)?.codeDirectories ?? []) : [];
    const identity = openP12(readFileSync(resolve(fixturesDir, 'p12', 'derived-isign-test-aes256.p12')), 'test');
    const cms = signCodeDirectories({
      codeDirectories: directories,
      certificate: identity.certificate.der,
      chain: identity.chain,
      privateKey: identity.privateKey,
      signingTime: new Date('2017-01-01T00:00:00Z'),
    });
    const result = verifyCodeDirectoryCms(cms, directories);
    expect(result.failures).toEqual([]);
    expect(result.signerCertificate?.equals(identity.certificate.der)).toBe(true);
    expect(result.cdHashes).toEqual(directories.map((cd) => cd.cdhash.toString('hex')));
  });
});

describe.each(Object.keys(expectations))('re-signing the binaries of ipa/%s with the isign test identity', (ipa) => {
  it('the original and the re-signed binaries both pass the verifier; the re-signed one names the new signer and team', async () => {
    const identity = openP12(readFileSync(resolve(fixturesDir, 'p12', 'derived-isign-test-aes256.p12')), 'test');
    const zip = await openZipIndex(resolve(fixturesDir, 'ipa', ipa));
    try {
      for (const binary of expectations[ipa] ?? []) {
        const bytes = await zip.readEntry(binary.path);
        const bundle = binary.path.slice(0, binary.path.lastIndexOf('/') + 1);
        const context = {
          infoPlist: await optional(zip, `${bundle}Info.plist`),
          codeResources: await optional(zip, `${bundle}_CodeSignature/CodeResources`),
        };
        expect([binary.path, verifyMachO(bytes, context)]).toEqual([binary.path, []]);
        const first = parseMachO(bytes).slices[0];
        const old = first ? readEmbeddedSignature(sliceBytes(bytes, first), first) : null;
        if (!first || !old) throw new Error(`${binary.path} is not signed`);
        const entitlements = old.entitlements;
        const signed = signMachO(bytes, {
          identifier: binary.identifier,
          teamId: 'ISIGNTESTS',
          certificate: identity.certificate.der,
          chain: identity.chain,
          privateKey: identity.privateKey,
          // Slot 1 only for a bundle's main executable, as the original had it.
          infoPlist: old.codeDirectories[0]?.specialSlots.get(1)?.some((byte) => byte !== 0) ? context.infoPlist : null,
          codeResources: old.codeDirectories[0]?.specialSlots.get(3)?.some((byte) => byte !== 0)
            ? context.codeResources
            : null,
          entitlementsXml: old.entitlementsXml,
          entitlementsDer: entitlements ? encodeDerEntitlements(entitlements) : null,
          isMainExecutable: first.fileType === 2,
          getTaskAllow: entitlements?.['get-task-allow'] === true,
          hashes: old.codeDirectories.length > 1 ? 'sha1+sha256' : 'sha256',
          signingTime: new Date('2017-01-01T00:00:00Z'),
        });
        expect([binary.path, verifyMachO(signed, context)]).toEqual([binary.path, []]);
        const file = parseMachO(signed);
        expect(file.slices.map((slice) => slice.arch)).toEqual(binary.archs);
        for (const slice of file.slices) {
          const signature = readEmbeddedSignature(sliceBytes(signed, slice), slice);
          expect(signature?.certificates[0]?.equals(identity.certificate.der)).toBe(true);
          expect(signature?.codeDirectories.map((cd) => [cd.identifier, cd.teamId])).toEqual(
            binary.directories.map(() => [binary.identifier, 'ISIGNTESTS']),
          );
          expect(decodeRequirement(signature?.requirements[0]?.data ?? Buffer.alloc(0))).toBe(
            `identifier "${binary.identifier}" and anchor apple generic and certificate leaf[subject.CN] = "isign_tests" and certificate 1[field.1.2.840.113635.100.6.2.1] exists`,
          );
        }
      }
    } finally {
      await zip.close();
    }
  });
});

/** Every file of an ipa by archive path. */
async function ipaFiles(ipa: string): Promise<Map<string, Buffer>> {
  const zip = await openZipIndex(resolve(fixturesDir, 'ipa', ipa));
  try {
    const files = new Map<string, Buffer>();
    for (const entry of zip.entries.values())
      if (!entry.isDirectory) files.set(entry.name, await zip.readEntry(entry.name));
    return files;
  } finally {
    await zip.close();
  }
}

describe.each(Object.keys(expectations))('the whole app of ipa/%s', (ipa) => {
  it('passes the verifier as Xcode signed it, and again re-signed with the isign identity and profile; a changed file fails it', async () => {
    const files = await ipaFiles(ipa);
    expect(verifyApp(files)).toEqual([]);
    const identity = openP12(readFileSync(resolve(fixturesDir, 'p12', 'derived-isign-test-aes256.p12')), 'test');
    const profile = readFileSync(resolve(fixturesDir, 'other', 'isign-credentials', 'test.mobileprovision'));
    const signed = await resignApp(files, {
      certificate: identity.certificate.der,
      chain: identity.chain,
      privateKey: identity.privateKey,
      profiles: [{ uuid: 'f4d8aa37-45a7-4304-960c-1291e1a5a0f3', appId: 'ISIGNTESTS.*', content: profile }],
      signingTime: new Date('2017-01-01T00:00:00Z'),
    });
    expect(signed.map((bundle) => [bundle.bundleId, bundle.profileUuid !== null])).toEqual(
      [...(expectations[ipa] ?? [])]
        .reverse()
        .map((binary) => [binary.identifier, !binary.path.includes('.framework/')]),
    );
    expect(verifyApp(files)).toEqual([]);
    const [main] = signed.slice(-1);
    const resource =
      [...files.keys()].find((name) => main && name.startsWith(main.path) && name.endsWith('.png')) ??
      `${main?.path}embedded.mobileprovision`;
    files.set(resource, Buffer.concat([files.get(resource) ?? Buffer.alloc(0), Buffer.from('!')]));
    expect(verifyApp(files).length).toBeGreaterThan(0);
  });
});

describe.each(['rcodesign-self-signed-rsa-apple-development.p12', 'rcodesign-self-signed-rsa-apple-distribution.p12'])(
  're-signing every fixture app with %s',
  (p12) => {
    it('passes the verifier, with a profile made for that certificate (team "test")', async () => {
      const identity = openP12(readFileSync(resolve(fixturesDir, 'p12', p12)), 'password');
      // No profile in the fixtures lists these certificates; one is made here, signed by a throwaway "Apple".
      const profile = makeSignedProfile(
        [{ der: identity.certificate.der }],
        makeIdentity('Test Provisioning Profile Signing'),
        {
          Name: 'rcodesign test',
          UUID: '0a0b0c0d-0000-4000-8000-000000000001',
          TeamIdentifier: ['test'],
          ExpirationDate: new Date('2037-01-01T00:00:00Z'),
          Entitlements: {
            'application-identifier': 'test.*',
            'com.apple.developer.team-identifier': 'test',
            'get-task-allow': true,
            'keychain-access-groups': ['test.*'],
          },
        },
      );
      for (const ipa of Object.keys(expectations)) {
        const files = await ipaFiles(ipa);
        await resignApp(files, {
          certificate: identity.certificate.der,
          chain: identity.chain,
          privateKey: identity.privateKey,
          profiles: [{ uuid: '0a0b0c0d-0000-4000-8000-000000000001', appId: 'test.*', content: profile }],
          signingTime: new Date('2026-11-23T00:00:00Z'),
        });
        expect([ipa, verifyApp(files)]).toEqual([ipa, []]);
      }
    });
  },
);
