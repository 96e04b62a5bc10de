import { createHash, createPrivateKey, randomFillSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { afterAll, describe, expect, it } from 'vitest';
import { makeAppleIdentity } from '@release/inspect/testing/identities.ts';
import { xmlPlist } from '@release/inspect/testing/packages.ts';
import { makeIdentity, signingTimeWithin } from '@release/inspect/testing/signing.ts';
import { loadHeldFiles, openIpa, readEntry } from './ipa-archive.ts';
import { signMachO, type MachOSigningInput } from './macho-signer.ts';
import {
  isStreamed,
  readStreamed,
  signedBytes,
  signStreamed,
  STREAM_FROM,
  toNewSignature,
  toPresentSignature,
} from './streamed-macho.ts';
import { sampleSignedIpa } from './testing/ipa-builder.ts';
import { buildFat, buildThinMachO, CPU_ARM64, CPU_ARMV7 } from './testing/macho-builder.ts';
import { verifyMachO, verifyStreamed } from './verify-macho.ts';

const signer = makeAppleIdentity({ commonName: 'Apple Development: 李雷 (NEWTEAM001)', teamId: 'NEWTEAM001' });
const oldSigner = makeIdentity('Apple Development: Old (OLDTEAM001)');
const infoPlist = xmlPlist({ CFBundleIdentifier: 'com.example.app', CFBundleExecutable: 'App' });
const codeResources = xmlPlist({ files: {}, files2: {}, rules: {}, rules2: {} });
const input = (hashes: MachOSigningInput['hashes']): MachOSigningInput => ({
  identifier: 'com.example.app',
  teamId: 'NEWTEAM001',
  certificate: signer.der,
  chain: [],
  privateKey: createPrivateKey(forge.pki.privateKeyToPem(signer.key)),
  infoPlist,
  codeResources,
  entitlementsXml: null,
  entitlementsDer: null,
  isMainExecutable: true,
  getTaskAllow: false,
  hashes,
  signingTime: signingTimeWithin(signer.certificate),
});

/** A binary's bytes in chunks of `size` (odd sizes cross page and head boundaries anywhere). */
async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield Buffer.from(bytes.subarray(at, at + size));
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

function binary(signed: boolean): Buffer {
  const bytes = buildThinMachO({
    codeSize: 1024 * 1024 + 123,
    signature: signed ? { identifier: 'com.example.app', teamId: 'OLDTEAM001', signer: oldSigner, infoPlist } : null,
  });
  randomFillSync(bytes, 16 * 1024, 1024 * 1024 - 16 * 1024);
  return bytes;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'streamed-macho-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('streamed executables', () => {
  for (const [label, signed, hashes] of [
    ['a signed binary, SHA-256', true, 'sha256'],
    ['a signed binary, SHA-1 + SHA-256', true, 'sha1+sha256'],
    ['an unsigned binary (LC_CODE_SIGNATURE added)', false, 'sha256'],
  ] as const) {
    it(`signs ${label} as it streams by, byte for byte as the whole binary is signed`, async () => {
      const source = binary(signed);
      // One input, one signing time: the signatures then differ only if the bytes signed do.
      const signing = input(hashes);
      const whole = signMachO(Buffer.from(source), signing);
      for (const chunk of [1000, 4096, 300 * 1024 + 7]) {
        const exe = await readStreamed(chunksOf(source, chunk), source.length, toNewSignature);
        // What is kept of the binary: its first 64 KiB (header and load commands) and its signature, not the code.
        expect(exe?.head.length).toBe(64 * 1024);
        const streamed = signStreamed(exe!, signing);
        const written = await collect(signedBytes(streamed, chunksOf(source, chunk)));
        expect(written.equals(whole), `chunks of ${chunk}`).toBe(true);
      }
    });
  }

  it('verifies a written executable from its page hashes, and names the page that changed', async () => {
    const signed = signMachO(binary(true), input('sha1+sha256'));
    const context = { infoPlist, codeResources };
    const intact = await readStreamed(chunksOf(signed, 65_537), signed.length, toPresentSignature);
    expect(verifyStreamed(intact!, context)).toEqual([]);
    const changed = Buffer.from(signed);
    changed[5 * 4096 + 17] = (changed[5 * 4096 + 17] as number) ^ 1;
    const tampered = await readStreamed(chunksOf(changed, 65_537), changed.length, toPresentSignature);
    // The independent (whole-buffer) verifier agrees on which page.
    expect(verifyStreamed(tampered!, context)).toEqual([
      'arm64: page 5 (CodeDirectory 0)',
      'arm64: page 5 (CodeDirectory 4096)',
    ]);
    expect(verifyMachO(changed, context)).toEqual(verifyStreamed(tampered!, context));
  });

  it('leaves a FAT binary to be held whole', async () => {
    const fat = buildFat([
      { bytes: buildThinMachO({ codeSize: 96 * 1024 }), ...CPU_ARM64 },
      { bytes: buildThinMachO({ codeSize: 96 * 1024, is64: false }), ...CPU_ARMV7 },
    ]);
    expect(await readStreamed(chunksOf(fat, 4096), fat.length, toNewSignature)).toBeNull();
  });

  it('re-signing loads an executable of 8 MiB or more as its page hashes, not its bytes; smaller ones whole', async () => {
    const large = path.join(dir, 'large.ipa');
    fs.writeFileSync(large, sampleSignedIpa({ mainCodeSize: STREAM_FROM + 4096, frameworkCodeSize: STREAM_FROM }));
    const archive = await openIpa(large);
    try {
      const files = await loadHeldFiles(archive, toNewSignature);
      const main = files.get('Payload/Demo.app/Demo');
      expect(isStreamed(main)).toBe(true);
      expect(isStreamed(main) && main.head.length).toBe(64 * 1024);
      // A nested bundle's large executable streams too; its digests are those of the signed bytes, taken later.
      const kit = files.get('Payload/Demo.app/Frameworks/Kit.framework/Kit');
      expect(isStreamed(kit) && kit.digest).toBeNull();
      expect(Buffer.isBuffer(files.get('Payload/Demo.app/PlugIns/Widget.appex/Widget'))).toBe(true);
      // Read to be verified, it brings the digests of its bytes (the app's seal holds them); the main one needs none.
      const read = await loadHeldFiles(archive, toPresentSignature, true);
      const readKit = read.get('Payload/Demo.app/Frameworks/Kit.framework/Kit');
      const whole = await readEntry(archive, archive.entries.find((e) => e.fileName.endsWith('Kit.framework/Kit'))!);
      expect(isStreamed(readKit) && readKit.digest?.sha256).toEqual(createHash('sha256').update(whole).digest());
      expect(isStreamed(readKit) && readKit.digest?.sha1).toEqual(createHash('sha1').update(whole).digest());
      const readMain = read.get('Payload/Demo.app/Demo');
      expect(isStreamed(readMain) && readMain.digest).toBeNull();
    } finally {
      archive.close();
    }
  });
});
