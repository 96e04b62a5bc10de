/**
 * The streaming re-signer the `/api/zsign` job runs (`resignIpa`: the fixture ipa read as a zip, resources hashed
 * as they stream, the new ipa written by yazl and read back through the verifier) over every fixture ipa with a
 * signed binary, with the isign test identity and the profile that lists it. The result is inspected as an upload
 * would be: the embedded profile is the isign one, the version is the fixture's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectPackage } from '@release/inspect/package-inspector.ts';
import { openP12 } from '@release/inspect/p12.ts';
import { parsePlistDict, plistString } from '@release/inspect/plist.ts';
import { bytesAt } from '../apps/server/src/signing/app-files.ts';
import { hashesForMinimumOs } from '../apps/server/src/signing/bundle-signer.ts';
import { CS_HASHTYPE, readEmbeddedSignature } from '../apps/server/src/signing/code-signature.ts';
import { loadAppFiles, openIpa } from '../apps/server/src/signing/ipa-archive.ts';
import { resignIpa } from '../apps/server/src/signing/ipa-resigner.ts';
import { parseMachO, sliceBytes } from '../apps/server/src/signing/macho.ts';
import { verifyApp } from '../apps/server/src/signing/verify-app.ts';
import { expectations, fixturesDir } from './macho-expectations.ts';

const out = mkdtempSync(join(tmpdir(), 'conformance-resign-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function entryNames(file: string): Promise<string[]> {
  const archive = await openIpa(file);
  try {
    return archive.entries.map((entry) => entry.fileName);
  } finally {
    archive.close();
  }
}

describe.each(Object.keys(expectations))('ipa/%s re-signed by the streaming re-signer', (ipa) => {
  it('passes the verifier as written, keeps every entry, and inspects as the same app with the isign profile', async () => {
    const identity = openP12(readFileSync(resolve(fixturesDir, 'p12', 'derived-isign-test-aes256.p12')), 'test');
    const profile = readFileSync(resolve(fixturesDir, 'other', 'isign-credentials', 'test.mobileprovision'));
    const source = resolve(fixturesDir, 'ipa', ipa);
    const output = join(out, ipa);
    const percents: number[] = [];
    const result = await resignIpa(
      source,
      output,
      {
        certificate: identity.certificate.der,
        chain: identity.chain,
        privateKey: identity.privateKey,
        profiles: [{ uuid: 'f4d8aa37-45a7-4304-960c-1291e1a5a0f3', appId: 'ISIGNTESTS.*', content: profile }],
        signingTime: new Date('2017-01-01T00:00:00Z'),
      },
      (_, percent) => percents.push(percent),
    );
    expect(result.signed.map((bundle) => bundle.bundleId)).toEqual(
      [...(expectations[ipa] ?? [])].reverse().map((binary) => binary.identifier),
    );
    expect(percents.at(-1)).toBe(100);
    const archive = await openIpa(output);
    try {
      expect(verifyApp(await loadAppFiles(archive))).toEqual([]);
    } finally {
      archive.close();
    }
    const before = await entryNames(source);
    const after = await entryNames(output);
    expect(before.filter((name) => !after.includes(name))).toEqual([]);
    const [original, resigned] = await Promise.all([inspectPackage(source), inspectPackage(output)]);
    if (original.kind !== 'ipa' || resigned.kind !== 'ipa') throw new Error('not inspected as an ipa');
    expect([resigned.bundleId, resigned.version, resigned.build]).toEqual([
      original.bundleId,
      original.version,
      original.build,
    ]);
    expect(resigned.provisioningProfile?.teamId).toBe('ISIGNTESTS');
  });
});

describe.each(Object.keys(expectations))('ipa/%s re-signed with code directories by minimum OS', (ipa) => {
  it('passes the verifier as written; every bundle executable has the code directories its MinimumOSVersion asks for', async () => {
    const identity = openP12(readFileSync(resolve(fixturesDir, 'p12', 'derived-isign-test-aes256.p12')), 'test');
    const profile = readFileSync(resolve(fixturesDir, 'other', 'isign-credentials', 'test.mobileprovision'));
    const output = join(out, `by-minimum-os-${ipa}`);
    const result = await resignIpa(
      resolve(fixturesDir, 'ipa', ipa),
      output,
      {
        certificate: identity.certificate.der,
        chain: identity.chain,
        privateKey: identity.privateKey,
        profiles: [{ uuid: 'f4d8aa37-45a7-4304-960c-1291e1a5a0f3', appId: 'ISIGNTESTS.*', content: profile }],
        signingTime: new Date('2017-01-01T00:00:00Z'),
      },
      undefined,
      { hashesByMinimumOs: true },
    );
    const archive = await openIpa(output);
    try {
      const files = await loadAppFiles(archive);
      expect(verifyApp(files)).toEqual([]);
      for (const bundle of result.signed) {
        const info = parsePlistDict(bytesAt(files, `${bundle.path}Info.plist`) ?? Buffer.alloc(0));
        const executable = bytesAt(files, `${bundle.path}${info ? plistString(info, 'CFBundleExecutable') : ''}`);
        const wanted = hashesForMinimumOs(info) ?? bundle.sourceHashes;
        expect(bundle.hashes).toBe(wanted);
        // Every slice of the written binary carries exactly those code directories.
        const binary = executable ?? Buffer.alloc(0);
        for (const slice of parseMachO(binary).slices) {
          const types = readEmbeddedSignature(sliceBytes(binary, slice), slice)?.codeDirectories.map(
            (cd) => cd.hashType,
          );
          expect(types).toEqual(wanted === 'sha256' ? [CS_HASHTYPE.sha256] : [CS_HASHTYPE.sha1, CS_HASHTYPE.sha256]);
        }
      }
    } finally {
      archive.close();
    }
  });
});
