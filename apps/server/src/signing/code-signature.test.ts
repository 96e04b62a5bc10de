import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeIdentity } from '@release/inspect/testing/signing.ts';
import { xmlPlist } from '@release/inspect/testing/packages.ts';
import {
  blobOfSlot,
  CSSLOT,
  CS_HASHTYPE,
  digestWith,
  mismatchedPages,
  mismatchedSpecialSlots,
  readEmbeddedSignature,
} from './code-signature.ts';
import { parseMachO, sliceBytes } from './macho.ts';
import { buildFat, buildThinMachO, CPU_ARM64, CPU_ARMV7 } from './testing/macho-builder.ts';

const signer = makeIdentity('Apple Development: Test Person (TEAM123456)');
const infoPlist = xmlPlist({ CFBundleIdentifier: 'com.example.app' });
const entitlementsXml = xmlPlist({ 'application-identifier': 'TEAM123456.com.example.app', 'get-task-allow': true });

function signedSlice(hashType: number = CS_HASHTYPE.sha256) {
  const bytes = buildThinMachO({
    signature: { identifier: 'com.example.app', teamId: 'TEAM123456', hashType, infoPlist, entitlementsXml, signer },
  });
  const slice = parseMachO(bytes).slices[0]!;
  return { bytes, slice, signature: readEmbeddedSignature(bytes, slice)! };
}

describe('readEmbeddedSignature', () => {
  it('reads the CodeDirectory, requirements, entitlements and the CMS with its certificate', () => {
    const { bytes, slice, signature } = signedSlice();
    expect(signature.blobs.map((b) => b.type)).toEqual([
      CSSLOT.codeDirectory,
      CSSLOT.requirements,
      CSSLOT.entitlements,
      CSSLOT.signature,
    ]);
    const [directory] = signature.codeDirectories;
    expect(directory).toMatchObject({
      slot: 0,
      version: 0x20400,
      identifier: 'com.example.app',
      teamId: 'TEAM123456',
      hashType: CS_HASHTYPE.sha256,
      hashSize: 32,
      pageSize: 4096,
      codeLimit: slice.codeSignature!.dataOffset,
      execSegBase: 0n,
      execSegLimit: 16384n,
      execSegFlags: 1n,
    });
    expect(directory!.codeHashes).toHaveLength(Math.ceil(directory!.codeLimit / 4096));
    expect(directory!.cdhash.equals(digestWith(CS_HASHTYPE.sha256, directory!.data).subarray(0, 20))).toBe(true);
    expect(signature.requirements).toEqual([]);
    expect(signature.entitlements).toEqual({
      'application-identifier': 'TEAM123456.com.example.app',
      'get-task-allow': true,
    });
    expect(signature.certificates.map((der) => new X509Certificate(der).subject)).toEqual([
      expect.stringContaining('CN=Apple Development: Test Person (TEAM123456)'),
    ]);
    expect(mismatchedPages(bytes, directory!)).toEqual([]);
    const slots = new Map([
      [CSSLOT.infoSlot, infoPlist],
      [CSSLOT.requirements, blobOfSlot(signature, CSSLOT.requirements)],
      [CSSLOT.resourceDir, null],
      [CSSLOT.entitlements, blobOfSlot(signature, CSSLOT.entitlements)],
    ]);
    expect(mismatchedSpecialSlots(directory!, slots)).toEqual([]);
  });

  it('finds a changed page, a changed Info.plist and changed entitlements', () => {
    const { bytes, signature } = signedSlice();
    const directory = signature.codeDirectories[0]!;
    const tampered = Buffer.from(bytes);
    tampered.writeUInt8(tampered.readUInt8(4096 + 10) ^ 0xff, 4096 + 10);
    expect(mismatchedPages(tampered, directory)).toEqual([1]);
    const slots = new Map([
      [CSSLOT.infoSlot, xmlPlist({ CFBundleIdentifier: 'com.evil.app' })],
      [CSSLOT.entitlements, Buffer.from('other entitlements')],
      [CSSLOT.resourceDir, Buffer.from('a CodeResources the signature never had')],
    ]);
    expect(mismatchedSpecialSlots(directory, slots)).toEqual([
      CSSLOT.infoSlot,
      CSSLOT.resourceDir,
      CSSLOT.entitlements,
    ]);
  });

  it('reads a SHA-1 primary with its SHA-256 alternate, per slice of a FAT file; an ad-hoc signature has no CMS', () => {
    const armv7 = buildThinMachO({
      is64: false,
      ...CPU_ARMV7,
      signature: { identifier: 'com.example.app', hashType: CS_HASHTYPE.sha1, signer },
    });
    const arm64 = buildThinMachO({ signature: { identifier: 'com.example.app' } });
    const fat = buildFat([
      { bytes: armv7, ...CPU_ARMV7 },
      { bytes: arm64, ...CPU_ARM64 },
    ]);
    const [first, second] = parseMachO(fat).slices;
    const signed = readEmbeddedSignature(sliceBytes(fat, first!), first!)!;
    expect(signed.codeDirectories.map((cd) => [cd.slot, cd.hashType, cd.hashSize])).toEqual([
      [0, CS_HASHTYPE.sha1, 20],
      [CSSLOT.alternateCodeDirectories, CS_HASHTYPE.sha256, 32],
    ]);
    for (const directory of signed.codeDirectories)
      expect(mismatchedPages(sliceBytes(fat, first!), directory)).toEqual([]);
    expect(signed.certificates).toHaveLength(1);
    const adhoc = readEmbeddedSignature(sliceBytes(fat, second!), second!)!;
    expect([adhoc.cms, adhoc.certificates, adhoc.entitlements]).toEqual([null, [], null]);
  });

  it('answers null for an unsigned slice', () => {
    const bytes = buildThinMachO({ signature: null });
    expect(readEmbeddedSignature(bytes, parseMachO(bytes).slices[0]!)).toBeNull();
  });
});
