import { createPrivateKey } from 'node:crypto';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { makeAppleIdentity } from '@release/inspect/testing/identities.ts';
import { xmlPlist } from '@release/inspect/testing/packages.ts';
import { makeIdentity, signingTimeWithin } from '@release/inspect/testing/signing.ts';
import { allocWithRoom } from './app-files.ts';
import { readEmbeddedSignature } from './code-signature.ts';
import { encodeDerEntitlements } from './der-entitlements.ts';
import { parseMachO, sliceBytes } from './macho.ts';
import { signMachO, SigningError, type MachOSigningInput } from './macho-signer.ts';
import { decodeRequirement } from './requirements.ts';
import { buildFat, buildThinMachO, CPU_ARM64, CPU_ARMV7 } from './testing/macho-builder.ts';
import { verifyMachO } from './verify-macho.ts';

const newSigner = makeAppleIdentity({ commonName: 'Apple Development: 李雷 (NEWTEAM001)', teamId: 'NEWTEAM001' });
const oldSigner = makeIdentity('Apple Development: Old (OLDTEAM001)');
const infoPlist = xmlPlist({ CFBundleIdentifier: 'com.example.app', CFBundleExecutable: 'App' });
const codeResources = xmlPlist({ files: {}, files2: {}, rules: {}, rules2: {} });
const entitlements = {
  'application-identifier': 'NEWTEAM001.com.example.app',
  'com.apple.developer.team-identifier': 'NEWTEAM001',
  'get-task-allow': true,
};

const input: MachOSigningInput = {
  identifier: 'com.example.app',
  teamId: 'NEWTEAM001',
  certificate: newSigner.der,
  chain: [],
  privateKey: createPrivateKey(forge.pki.privateKeyToPem(newSigner.key)),
  infoPlist,
  codeResources,
  entitlementsXml: xmlPlist(entitlements),
  entitlementsDer: encodeDerEntitlements(entitlements),
  isMainExecutable: true,
  getTaskAllow: true,
  hashes: 'sha256',
  signingTime: signingTimeWithin(newSigner.certificate),
};

describe('signMachO', () => {
  it('re-signs a signed arm64 binary: the verifier passes, the new signer, team, requirement and entitlements are in', () => {
    const original = buildThinMachO({
      signature: { identifier: 'com.example.app', teamId: 'OLDTEAM001', signer: oldSigner, infoPlist },
    });
    const signed = signMachO(original, input);
    expect(verifyMachO(signed, { infoPlist, codeResources })).toEqual([]);
    const slice = parseMachO(signed).slices[0]!;
    const signature = readEmbeddedSignature(signed, slice)!;
    expect(signature.codeDirectories.map((cd) => [cd.identifier, cd.teamId, cd.hashType, cd.execSegFlags])).toEqual([
      ['com.example.app', 'NEWTEAM001', 2, 0x11n],
    ]);
    expect(signature.certificates[0]?.equals(newSigner.der)).toBe(true);
    expect(decodeRequirement(signature.requirements[0]!.data)).toContain(
      'certificate leaf[subject.CN] = "Apple Development: 李雷 (NEWTEAM001)"',
    );
    expect(signature.entitlements).toEqual(entitlements);
    // The code before the signature is the original's except for the sizes in the header.
    const offset = slice.codeSignature!.dataOffset;
    expect(signed.subarray(4096, offset).equals(original.subarray(4096, offset))).toBe(true);
    // Nothing but the signature changed, so the verifier finds a changed Info.plist.
    expect(verifyMachO(signed, { infoPlist: xmlPlist({ CFBundleIdentifier: 'com.evil' }), codeResources })).toEqual([
      'arm64: special slot 1 (CodeDirectory 0)',
    ]);
  });

  it('signs an unsigned binary by adding LC_CODE_SIGNATURE, with SHA-1 and SHA-256 CodeDirectories', () => {
    const signed = signMachO(buildThinMachO({ signature: null }), {
      ...input,
      hashes: 'sha1+sha256',
      entitlementsDer: null,
      isMainExecutable: false,
      infoPlist: null,
      codeResources: null,
    });
    expect(verifyMachO(signed, { infoPlist: null, codeResources: null })).toEqual([]);
    const signature = readEmbeddedSignature(signed, parseMachO(signed).slices[0]!)!;
    expect(signature.codeDirectories.map((cd) => [cd.slot, cd.hashType, cd.execSegFlags])).toEqual([
      [0, 1, 0n],
      [0x1000, 2, 0n],
    ]);
  });

  it('re-signs each slice of a FAT binary and keeps them aligned', () => {
    const fat = buildFat([
      {
        bytes: buildThinMachO({
          is64: false,
          ...CPU_ARMV7,
          signature: { identifier: 'com.example.app', signer: oldSigner },
        }),
        ...CPU_ARMV7,
      },
      { bytes: buildThinMachO({ signature: { identifier: 'com.example.app', signer: oldSigner } }), ...CPU_ARM64 },
    ]);
    const signed = signMachO(fat, input);
    const file = parseMachO(signed);
    expect(file.slices.map((s) => [s.arch, s.offset % 16384])).toEqual([
      ['armv7', 0],
      ['arm64', 0],
    ]);
    expect(verifyMachO(signed, { infoPlist, codeResources })).toEqual([]);
    for (const slice of file.slices)
      expect(readEmbeddedSignature(sliceBytes(signed, slice), slice)?.certificates[0]?.equals(newSigner.der)).toBe(
        true,
      );
  });

  it('refuses an App Store-encrypted binary', () => {
    expect(() => signMachO(buildThinMachO({ cryptId: 1, signature: { identifier: 'x' } }), input)).toThrow(
      SigningError,
    );
  });
  it('signs a binary read with room after it in that memory, byte for byte as a copy would be signed', () => {
    const original = buildThinMachO({
      codeSize: 64 * 1024,
      signature: { identifier: 'com.example.app', teamId: 'OLDTEAM001', signer: oldSigner, infoPlist },
    });
    const copied = signMachO(Buffer.from(original), input);
    const withRoom = allocWithRoom(original.length);
    original.copy(withRoom);
    const signed = signMachO(withRoom, input);
    expect(signed.buffer).toBe(withRoom.buffer);
    expect(signed.byteOffset).toBe(withRoom.byteOffset);
    expect(signed.equals(copied)).toBe(true);
    expect(verifyMachO(signed, { infoPlist, codeResources })).toEqual([]);
  });
});
