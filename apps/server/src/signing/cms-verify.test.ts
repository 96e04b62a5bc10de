import { describe, expect, it } from 'vitest';
import { makeAppleIdentity } from '@release/inspect/testing/identities.ts';
import { makeIdentity } from '@release/inspect/testing/signing.ts';
import { DAY_MS } from '@release/inspect/testing/validity.ts';
import { readEmbeddedSignature } from './code-signature.ts';
import { verifyCodeDirectoryCms } from './cms-verify.ts';
import { parseMachO } from './macho.ts';
import { buildThinMachO } from './testing/macho-builder.ts';

const signer = makeIdentity('Apple Development: Test Person (TEAM123456)');
const other = makeIdentity('Someone Else');

function signature(identity = signer, identifier = 'com.example.app', signingTime?: Date) {
  const bytes = buildThinMachO({ signature: { identifier, teamId: 'TEAM123456', signer: identity, signingTime } });
  const read = readEmbeddedSignature(bytes, parseMachO(bytes).slices[0]!);
  if (!read?.cms) throw new Error('not signed');
  return { cms: read.cms, directories: read.codeDirectories };
}

describe('verifyCodeDirectoryCms', () => {
  it('accepts a CMS over the primary CodeDirectory signed by its certificate, and reads its signing time', () => {
    // A day after the certificate was issued: inside its validity, as a real signature's time is.
    const signedAt = new Date(signer.certificate.validity.notBefore.getTime() + DAY_MS);
    const { cms, directories } = signature(signer, 'com.example.app', signedAt);
    const result = verifyCodeDirectoryCms(cms, directories);
    expect(result.failures).toEqual([]);
    expect(result.signerCertificate?.equals(signer.der)).toBe(true);
    expect(result.digestAlgorithm).toBe('sha256');
    expect(result.signingTime?.toISOString()).toBe(signedAt.toISOString());
    expect([result.cdHashes, result.cdHashes2]).toEqual([null, null]);
  });

  it("dates a test signature made without a time inside its signer's validity, even for an expired certificate", () => {
    const signedTime = (identity: typeof signer) => {
      const { cms, directories } = signature(identity);
      const result = verifyCodeDirectoryCms(cms, directories);
      expect(result.failures).toEqual([]);
      return result.signingTime?.getTime();
    };
    const before = Math.floor(Date.now() / 1000) * 1000;
    const current = signedTime(signer) ?? 0;
    expect([current >= before, current <= Date.now()]).toEqual([true, true]);
    const expired = makeAppleIdentity({
      notBefore: new Date(before - 400 * DAY_MS),
      notAfter: new Date(before - 35 * DAY_MS),
    });
    expect(signedTime(expired)).toBe(expired.certificate.validity.notAfter.getTime());
  });

  it('refuses a CodeDirectory the CMS did not sign', () => {
    const { cms } = signature();
    const { directories: foreign } = signature(other, 'com.example.other');
    expect(verifyCodeDirectoryCms(cms, foreign).failures).toEqual(['messageDigest']);
  });

  it('refuses a changed signature and garbage', () => {
    const { cms, directories } = signature();
    const tampered = Buffer.from(cms);
    const at = tampered.length - 10;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0xff, at);
    expect(verifyCodeDirectoryCms(tampered, directories).failures).toEqual(['signature']);
    expect(verifyCodeDirectoryCms(Buffer.from('not a cms'), directories).failures).toEqual(['unreadable']);
  });
});
