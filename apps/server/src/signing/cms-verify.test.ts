import { describe, expect, it } from 'vitest';
import { makeIdentity } from '../inspect/testing/signing.ts';
import { readEmbeddedSignature } from './code-signature.ts';
import { verifyCodeDirectoryCms } from './cms-verify.ts';
import { parseMachO } from './macho.ts';
import { buildThinMachO } from './testing/macho-builder.ts';

const signer = makeIdentity('Apple Development: Test Person (TEAM123456)');
const other = makeIdentity('Someone Else');

function signature(identity = signer, identifier = 'com.example.app') {
  const bytes = buildThinMachO({ signature: { identifier, teamId: 'TEAM123456', signer: identity } });
  const read = readEmbeddedSignature(bytes, parseMachO(bytes).slices[0]!);
  if (!read?.cms) throw new Error('not signed');
  return { cms: read.cms, directories: read.codeDirectories };
}

describe('verifyCodeDirectoryCms', () => {
  it('accepts a CMS over the primary CodeDirectory signed by its certificate', () => {
    const { cms, directories } = signature();
    const result = verifyCodeDirectoryCms(cms, directories);
    expect(result.failures).toEqual([]);
    expect(result.signerCertificate?.equals(signer.der)).toBe(true);
    expect(result.digestAlgorithm).toBe('sha256');
    expect(result.signingTime?.toISOString()).toBe('2024-06-01T00:00:00.000Z');
    expect([result.cdHashes, result.cdHashes2]).toEqual([null, null]);
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
