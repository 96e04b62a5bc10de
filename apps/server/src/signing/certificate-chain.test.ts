import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeAppleIdentity, makeTestCa } from '@release/inspect/testing/identities.ts';
import { makeIdentity } from '@release/inspect/testing/signing.ts';
import { APPLE_CAS } from './apple-pki.ts';
import { ChainError, completeChain } from './certificate-chain.ts';
import { appleCa, caNamedLike } from './testing/apple-ca.ts';

const g3 = appleCa('AppleDevCACertG3.pem');
const root = appleCa('AppleRootCACert.pem');
const caNamedLikeG3 = () => caNamedLike('AppleDevCACertG3.pem');

describe('Apple certificate chain', () => {
  it("ships Apple's CAs byte for byte: each fingerprint is the one Apple lists", () => {
    expect(APPLE_CAS.length).toBe(10);
    for (const ca of APPLE_CAS) expect(new X509Certificate(ca.pem).fingerprint256, ca.file).toBe(ca.sha256);
  });

  it("adds the WWDR intermediate named by a leaf's issuer and the Apple root above it, when the .p12 holds the leaf alone", () => {
    const leaf = makeAppleIdentity({ issuer: caNamedLikeG3() });
    const chain = completeChain(leaf.der, []);
    expect(chain.map((der) => new X509Certificate(der).fingerprint256)).toEqual([
      g3.fingerprint256,
      root.fingerprint256,
    ]);
  });

  it('keeps the chain the .p12 brought and completes it up to its root', () => {
    // The .p12 holds Apple's intermediate but not the root: the root is added after it.
    const leaf = makeAppleIdentity({ issuer: caNamedLikeG3() });
    const chain = completeChain(leaf.der, [g3.raw]);
    expect(chain.map((der) => new X509Certificate(der).fingerprint256)).toEqual([
      g3.fingerprint256,
      root.fingerprint256,
    ]);
    // A test CA that is its own root: nothing to add.
    const testCa = makeTestCa();
    expect(completeChain(makeAppleIdentity({ issuer: testCa }).der, [testCa.der])).toEqual([testCa.der]);
  });

  it('refuses a leaf of an unknown issuer that came without a chain, naming the issuer; a self-signed leaf needs none', () => {
    const stranger = makeAppleIdentity({ issuer: makeTestCa([{ name: 'commonName', value: 'Some Other CA' }]) });
    expect(() => completeChain(stranger.der, [])).toThrow(ChainError);
    expect(() => completeChain(stranger.der, [])).toThrow(expect.objectContaining({ issuer: 'Some Other CA' }));
    expect(completeChain(makeIdentity('Self Signed Developer').der, [])).toEqual([]);
  });
});
