/**
 * Conformance of the Mach-O and code-signature readers (apps/server/src/signing) against the signed binaries
 * inside the fixture ipas: architectures, CodeDirectories (SHA-1 + SHA-256 alternates), page hashes, special
 * slots against the bundle's Info.plist and CodeResources, entitlements (XML and DER), the CMS certificates,
 * the designated requirement (decoded, and rebuilt byte for byte), the CMS signature over the primary
 * CodeDirectory with Apple's cdhash attributes, and that the signer is the
 * certificate the embedded profile lists. Expected values from fixtures/SOURCES.md.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectMobileprovision } from '@release/inspect/mobileprovision.ts';
import { openZipIndex, type ZipIndex } from '@release/inspect/zip-index.ts';
import {
  blobOfSlot,
  CSSLOT,
  mismatchedPages,
  mismatchedSpecialSlots,
  readEmbeddedSignature,
} from '../apps/server/src/signing/code-signature.ts';
import { verifyCodeDirectoryCms } from '../apps/server/src/signing/cms-verify.ts';
import { decodeRequirement, designatedRequirement, requirementSet } from '../apps/server/src/signing/requirements.ts';
import { decodeDerEntitlements, encodeDerEntitlements } from '../apps/server/src/signing/der-entitlements.ts';
import { expectations, fixturesDir, optional } from './macho-expectations.ts';
import { buildCodeDirectory } from '../apps/server/src/signing/code-directory.ts';
import { checkSealedFiles, parseCodeResources } from '../apps/server/src/signing/code-resources.ts';
import { buildCodeResources } from '../apps/server/src/signing/code-resources-builder.ts';
import { parsePlistDict, plistString } from '@release/inspect/plist.ts';
import { looksLikeMachO, parseMachO, sliceBytes } from '../apps/server/src/signing/macho.ts';

const commonName = (der: Buffer) =>
  new X509Certificate(der).subject
    .split('\n')
    .find((line) => line.startsWith('CN='))
    ?.slice(3) ?? null;
const sha1 = (der: Buffer) => createHash('sha1').update(der).digest('hex').toUpperCase();

async function machOPaths(zip: ZipIndex): Promise<string[]> {
  const found: string[] = [];
  for (const entry of zip.entries.values()) {
    if (entry.isDirectory || entry.uncompressedSize < 64 || !entry.name.startsWith('Payload/')) continue;
    if (looksLikeMachO(await zip.readEntry(entry.name))) found.push(entry.name);
  }
  return found.sort();
}

describe.each(Object.keys(expectations))('signed binaries of ipa/%s', (ipa) => {
  const expected = expectations[ipa] ?? [];

  it('finds every Mach-O, and each verifies: pages, special slots, entitlements, CMS signer listed by the profile', async () => {
    const zip = await openZipIndex(resolve(fixturesDir, 'ipa', ipa));
    try {
      expect(await machOPaths(zip)).toEqual(expected.map((e) => e.path).sort());
      for (const binary of expected) {
        const bytes = await zip.readEntry(binary.path);
        const file = parseMachO(bytes);
        expect([binary.path, file.slices.map((s) => s.arch)]).toEqual([binary.path, binary.archs]);
        const bundle = binary.path.slice(0, binary.path.lastIndexOf('/') + 1);
        const profile = await optional(zip, `${bundle}embedded.mobileprovision`);
        for (const slice of file.slices) {
          const code = sliceBytes(bytes, slice);
          expect(slice.encryption?.cryptId ?? 0).toBe(0);
          const signature = readEmbeddedSignature(code, slice);
          if (!signature) throw new Error(`${binary.path} ${slice.arch} is not signed`);
          expect(signature.codeDirectories.map((cd) => [cd.slot, cd.hashType])).toEqual(binary.directories);
          const slots = new Map<number, Buffer | null>([
            [CSSLOT.infoSlot, await optional(zip, `${bundle}Info.plist`)],
            [CSSLOT.requirements, blobOfSlot(signature, CSSLOT.requirements)],
            [CSSLOT.resourceDir, await optional(zip, `${bundle}_CodeSignature/CodeResources`)],
            [CSSLOT.entitlements, blobOfSlot(signature, CSSLOT.entitlements)],
            [CSSLOT.derEntitlements, blobOfSlot(signature, CSSLOT.derEntitlements)],
          ]);
          for (const directory of signature.codeDirectories) {
            expect([binary.path, slice.arch, directory.slot, directory.identifier, directory.teamId]).toEqual([
              binary.path,
              slice.arch,
              directory.slot,
              binary.identifier,
              binary.teamId,
            ]);
            expect([binary.path, slice.arch, mismatchedPages(code, directory)]).toEqual([binary.path, slice.arch, []]);
            expect([binary.path, slice.arch, mismatchedSpecialSlots(directory, slots)]).toEqual([
              binary.path,
              slice.arch,
              [],
            ]);
            // The signer's CodeDirectory builder lays it out as Xcode did, byte for byte.
            const rebuilt = buildCodeDirectory({
              version: directory.version as 0x20200 | 0x20400,
              flags: directory.flags,
              hashType: directory.hashType,
              identifier: directory.identifier,
              teamId: directory.teamId,
              code: code.subarray(0, directory.codeLimit),
              pageSizeLog2: Math.log2(directory.pageSize),
              specialSlots: directory.specialSlots,
              specialSlotCount: directory.specialSlots.size,
              platform: directory.platform,
              execSegBase: directory.execSegBase ?? undefined,
              execSegLimit: directory.execSegLimit ?? undefined,
              execSegFlags: directory.execSegFlags ?? undefined,
            });
            expect([binary.path, slice.arch, directory.slot, rebuilt.equals(directory.data)]).toEqual([
              binary.path,
              slice.arch,
              directory.slot,
              true,
            ]);
          }
          expect(signature.requirements.map((r) => r.type)).toEqual([3]);
          // Xcode's designated requirement, which the signer rebuilds byte for byte.
          const designated = `identifier "${binary.identifier}" and anchor apple generic and certificate leaf[subject.CN] = "${binary.signer}" and certificate 1[field.1.2.840.113635.100.6.2.1] exists`;
          expect(decodeRequirement(signature.requirements[0]?.data ?? Buffer.alloc(0))).toBe(designated);
          const rebuilt = requirementSet([{ type: 3, blob: designatedRequirement(binary.identifier, binary.signer) }]);
          expect(rebuilt.equals(blobOfSlot(signature, CSSLOT.requirements) ?? Buffer.alloc(0))).toBe(true);
          const derForm = signature.derEntitlements
            ? signature.derEntitlements[0] === 0x70
              ? 'current'
              : 'xcode12'
            : null;
          expect(derForm).toBe(binary.derEntitlements);
          if (signature.derEntitlements && signature.entitlements) {
            // Both forms say the same; the current form is what the signer writes, byte for byte.
            expect(decodeDerEntitlements(signature.derEntitlements)).toEqual(signature.entitlements);
            if (derForm === 'current')
              expect(encodeDerEntitlements(signature.entitlements).equals(signature.derEntitlements)).toBe(true);
          }
          expect(signature.entitlements?.['application-identifier'] ?? null).toBe(
            slice.fileType === 2 ? `${binary.teamId}.${binary.identifier}` : null,
          );
          const [leaf, ...chain] = signature.certificates;
          expect(leaf && commonName(leaf)).toBe(binary.signer);
          expect(chain.map(commonName)).toEqual([
            'Apple Worldwide Developer Relations Certification Authority',
            'Apple Root CA',
          ]);
          if (profile && leaf)
            expect(inspectMobileprovision(profile).developerCertificates.map((c) => c.sha1)).toContain(sha1(leaf));
          // The CMS signs the primary CodeDirectory with that certificate; Apple's cdhash attributes name every CodeDirectory.
          const cms = verifyCodeDirectoryCms(signature.cms ?? Buffer.alloc(0), signature.codeDirectories);
          expect([binary.path, slice.arch, cms.failures]).toEqual([binary.path, slice.arch, []]);
          expect(cms.signerCertificate?.equals(leaf ?? Buffer.alloc(0))).toBe(true);
          expect(cms.cdHashes).toEqual(signature.codeDirectories.map((cd) => cd.cdhash.toString('hex')));
        }
      }
    } finally {
      await zip.close();
    }
  });
});

describe('a corrupted page is caught', () => {
  it('flipping one byte of the main binary of isign-Test.ipa fails exactly that page', async () => {
    const zip = await openZipIndex(resolve(fixturesDir, 'ipa', 'isign-Test.ipa'));
    const bytes = Buffer.from(await zip.readEntry('Payload/IsignTestApp.app/IsignTestApp'));
    await zip.close();
    const slice = parseMachO(bytes).slices[0];
    if (!slice) throw new Error('no slice');
    const directory = readEmbeddedSignature(bytes, slice)?.codeDirectories[0];
    if (!directory) throw new Error('no CodeDirectory');
    const page = 5;
    const at = page * directory.pageSize + 100;
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0x01, at);
    expect(mismatchedPages(bytes, directory)).toEqual([page]);
  });

  it('a CodeDirectory changed after signing no longer matches the CMS of isign-Test.ipa', async () => {
    const zip = await openZipIndex(resolve(fixturesDir, 'ipa', 'isign-Test.ipa'));
    const bytes = Buffer.from(await zip.readEntry('Payload/IsignTestApp.app/IsignTestApp'));
    await zip.close();
    const slice = parseMachO(bytes).slices[0];
    const signature = slice ? readEmbeddedSignature(bytes, slice) : null;
    const directory = signature?.codeDirectories[0];
    if (!signature?.cms || !directory) throw new Error('not signed');
    expect(verifyCodeDirectoryCms(signature.cms, signature.codeDirectories).failures).toEqual([]);
    // Pretend a signer rewrote one page hash without signing again.
    directory.data.writeUInt8(directory.data.readUInt8(directory.data.length - 1) ^ 0x01, directory.data.length - 1);
    const reread = readEmbeddedSignature(bytes, slice!);
    expect(verifyCodeDirectoryCms(signature.cms, reread?.codeDirectories ?? []).failures).toEqual([
      'messageDigest',
      'cdHashes',
    ]);
  });
});

/** Every file of the bundle at `root` (relative paths), read from the ipa. */
async function bundleFiles(zip: ZipIndex, root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of zip.entries.values()) {
    if (!entry.isDirectory && entry.name.startsWith(root))
      files.set(entry.name.slice(root.length), await zip.readEntry(entry.name));
  }
  return files;
}

/** Seals written by 2016 Xcode (rules2 with `^` and nested-code rules, `hash` beside `hash2`). */
const OLDER_XCODE_SEALS = new Set([
  'Payload/AppInfoDemo.app/_CodeSignature/CodeResources',
  'Payload/bundle.app/_CodeSignature/CodeResources',
]);

describe.each(Object.keys(expectations))('CodeResources of ipa/%s', (ipa) => {
  it('every sealed file matches, none is missing, none is unsealed; a changed resource is caught', async () => {
    const zip = await openZipIndex(resolve(fixturesDir, 'ipa', ipa));
    try {
      const seals = [...zip.entries.keys()].filter((name) => name.endsWith('/_CodeSignature/CodeResources')).sort();
      expect(seals.length).toBeGreaterThan(0);
      for (const seal of seals) {
        const root = seal.slice(0, -'_CodeSignature/CodeResources'.length);
        const resources = parseCodeResources(await zip.readEntry(seal));
        if (!resources) throw new Error(`${seal} is not a plist`);
        const files = await bundleFiles(zip, root);
        const info = parsePlistDict(files.get('Info.plist') ?? Buffer.alloc(0));
        const executable = info ? plistString(info, 'CFBundleExecutable') : null;
        expect([seal, checkSealedFiles(resources, files, executable)]).toEqual([
          seal,
          { mismatched: [], missing: [], unsealed: [], nested: [] },
        ]);
        // The signer's seal of the same files: byte for byte what current Xcode wrote; 2016 Xcode used other rules.
        const binary = files.get(executable ?? '') ?? Buffer.alloc(0);
        const firstSlice = parseMachO(binary).slices[0];
        const withSha1 = firstSlice
          ? (readEmbeddedSignature(sliceBytes(binary, firstSlice), firstSlice)?.codeDirectories.length ?? 0) > 1
          : false;
        const rebuilt = buildCodeResources(files, executable, { withSha1 });
        expect([seal, checkSealedFiles(parseCodeResources(rebuilt)!, files, executable)]).toEqual([
          seal,
          { mismatched: [], missing: [], unsealed: [], nested: [] },
        ]);
        expect([seal, rebuilt.equals(await zip.readEntry(seal))]).toEqual([seal, !OLDER_XCODE_SEALS.has(seal)]);
        const [first] = [...resources.files2.keys()].filter((path) => files.has(path));
        if (first) {
          files.set(first, Buffer.concat([files.get(first) ?? Buffer.alloc(0), Buffer.from('x')]));
          expect(checkSealedFiles(resources, files, executable).mismatched).toEqual([first]);
        }
      }
    } finally {
      await zip.close();
    }
  });
});
