import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { openP12, P12_KDF_ITERATIONS, P12Error } from './p12.ts';
import { makeEcHarmonyIdentity } from './testing/hap-ec-identity.ts';
import { makeAppleIdentity, makeP12, type P12Kind } from './testing/identities.ts';

const identity = makeAppleIdentity({
  teamId: 'ABCDE12345',
  teamName: '示例科技',
  commonName: 'Apple Development: 张三 (ABCDE12345)',
});
const other = makeAppleIdentity({ teamId: 'ZZZZZ99999' });

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof P12Error) return error.reason;
    throw error;
  }
  return 'opened';
}

describe('openP12', () => {
  it.each<P12Kind>(['openssl-legacy', 'openssl-aes', 'forge-3des'])(
    'opens a %s p12: byte-exact certificate, its key, team',
    (kind) => {
      const opened = openP12(makeP12(identity, 'secret-pw', kind), 'secret-pw');
      expect(opened.certificate.der.equals(identity.der)).toBe(true);
      expect(opened.certificate.sha1).toBe(identity.sha1);
      expect(opened.certificate.commonName).toBe('Apple Development: 张三 (ABCDE12345)');
      expect(opened.certificate.serialNumber).toBe('5A3C01');
      expect([opened.certificate.validFrom, opened.certificate.validTo]).toEqual([
        identity.certificate.validity.notBefore,
        identity.certificate.validity.notAfter,
      ]);
      expect([opened.teamId, opened.teamName]).toEqual(['ABCDE12345', '示例科技']);
      expect(opened.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
      expect(opened.privateKey.asymmetricKeyType).toBe('rsa');
      // The test identity's issuing CA comes along as the chain, as Keychain exports it when it holds the CA.
      expect(opened.chain.map((der) => der.equals(identity.issuerCa.der))).toEqual([true]);
      expect(openP12(makeP12(identity, 'secret-pw', kind, { leafOnly: true }), 'secret-pw').chain).toEqual([]);
    },
  );

  it.each<P12Kind>(['openssl-legacy', 'openssl-aes', 'forge-3des'])(
    'opens a %s p12 whose password is Chinese',
    (kind) => {
      expect(openP12(makeP12(identity, '证书密码2026', kind), '证书密码2026').certificate.sha1).toBe(identity.sha1);
      expect(() => openP12(makeP12(identity, '证书密码2026', kind), '证书密码2025')).toThrow(P12Error);
    },
  );

  it('refuses a wrong password in either form', () => {
    expect(reasonOf(() => openP12(makeP12(identity, 'right', 'openssl-legacy'), 'wrong'))).toBe('wrongPassword');
    expect(reasonOf(() => openP12(makeP12(identity, 'right', 'openssl-aes'), 'wrong'))).toBe('wrongPassword');
    expect(reasonOf(() => openP12(makeP12(identity, 'right', 'forge-3des'), ''))).toBe('wrongPassword');
  });

  it('refuses files that are not PKCS#12', () => {
    expect(reasonOf(() => openP12(Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n'), 'x'))).toBe('notP12');
    expect(reasonOf(() => openP12(identity.der, 'x'))).toBe('notP12');
    expect(reasonOf(() => openP12(Buffer.alloc(0), 'x'))).toBe('notP12');
  });

  it('refuses a p12 without a private key, and one whose certificate belongs to another key', () => {
    const certOnly = forge.pkcs12.toPkcs12Asn1(null, [identity.certificate], 'pw', { algorithm: '3des' });
    expect(reasonOf(() => openP12(Buffer.from(forge.asn1.toDer(certOnly).getBytes(), 'binary'), 'pw'))).toBe(
      'noPrivateKey',
    );
    const mixed = forge.pkcs12.toPkcs12Asn1(identity.key, [other.certificate], 'pw', { algorithm: '3des' });
    expect(reasonOf(() => openP12(Buffer.from(forge.asn1.toDer(mixed).getBytes(), 'binary'), 'pw'))).toBe(
      'keyMismatch',
    );
  });

  it('keeps the other certificates of the file as the chain', () => {
    const asn1 = forge.pkcs12.toPkcs12Asn1(identity.key, [identity.certificate, other.certificate], 'pw', {
      algorithm: 'aes256',
    });
    const opened = openP12(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'), 'pw');
    expect(opened.certificate.sha1).toBe(identity.sha1);
    expect(opened.chain.map((der) => der.equals(other.der))).toEqual([true]);
  });

  it(`refuses a p12 whose key derivations would take more than ${P12_KDF_ITERATIONS.toLocaleString('en')} iterations, before running them`, () => {
    // Each of the MAC, the certificate bag and the key bag asks for 200,000: refused at the first one.
    const costly = makeP12(identity, 'secret-pw', 'openssl-aes', { iterations: 200_000 });
    expect(reasonOf(() => openP12(costly, 'secret-pw'))).toBe('tooCostly');
    expect(reasonOf(() => openP12(costly, '密码'))).toBe('tooCostly');
    // Java's keytool uses 10,000 per step: well within.
    expect(openP12(makeP12(identity, 'secret-pw', 'openssl-aes', { iterations: 10_000 }), 'secret-pw').teamId).toBe(
      'ABCDE12345',
    );
  });

  it('opens an EC P-256 identity (HarmonyOS release certificates) with its chain; a wrong password is still wrongPassword', () => {
    const harmony = makeEcHarmonyIdentity('示例科技有限公司(1234567890),Release');
    const opened = openP12(harmony.p12('鸿蒙2026'), '鸿蒙2026');
    expect(opened.privateKey.asymmetricKeyType).toBe('ec');
    expect(opened.certificate.der.equals(harmony.der)).toBe(true);
    expect(opened.chain).toHaveLength(2);
    expect(reasonOf(() => openP12(harmony.p12('鸿蒙2026'), '鸿蒙2025'))).toBe('wrongPassword');
  });
});
