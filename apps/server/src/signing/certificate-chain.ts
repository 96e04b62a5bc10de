import { X509Certificate } from 'node:crypto';
import { APPLE_CAS } from './apple-pki.ts';

/**
 * The certificates a signature carries above its leaf, as Xcode's do: what the .p12 brought, completed upwards with
 * Apple's public CAs (the leaf's WWDR intermediate, then the Apple root). An issuer is picked by the issuer's name
 * and, when the certificate names one, its authority key id (OpenSSL's check_issued), preferring one whose key
 * verifies the certificate, then the longest-lived. A leaf whose issuer is neither in the .p12 nor one of Apple's
 * is refused: signing with it alone would make a signature no device can chain.
 */
export class ChainError extends Error {
  constructor(readonly issuer: string) {
    super(`no certificate chain for a leaf issued by ${issuer}`);
    this.name = 'ChainError';
  }
}

let parsed: X509Certificate[] | null = null;
const appleCas = () => {
  parsed ??= APPLE_CAS.map((ca) => new X509Certificate(ca.pem));
  return parsed;
};

function isSelfSigned(certificate: X509Certificate): boolean {
  return certificate.issuer === certificate.subject && certificate.verify(certificate.publicKey);
}

/** Apple's CA that issued `certificate`, if one did. */
export function appleIssuerOf(certificate: X509Certificate): X509Certificate | null {
  const candidates = appleCas().filter((ca) => certificate.checkIssued(ca));
  const verifies = (ca: X509Certificate) => (certificate.verify(ca.publicKey) ? 1 : 0);
  const expiry = (ca: X509Certificate) => new Date(ca.validTo).getTime();
  candidates.sort((a, b) => verifies(b) - verifies(a) || expiry(b) - expiry(a));
  return candidates[0] ?? null;
}

/** A certificate's common name (or its whole subject line) for messages. */
export function issuerName(certificate: X509Certificate): string {
  const match = /^CN=(.*)$/m.exec(certificate.issuer);
  return match?.[1] ?? certificate.issuer.replace(/\n/g, ', ');
}

/** The chain to sign with: `given` (from the .p12) followed by Apple's CAs above its top; throws ChainError. */
export function completeChain(leafDer: Buffer, given: readonly Buffer[]): Buffer[] {
  const leaf = new X509Certificate(leafDer);
  const chain = [...given];
  let top = chain.length > 0 ? new X509Certificate(chain[chain.length - 1] as Buffer) : leaf;
  for (let depth = 0; depth < 4 && !isSelfSigned(top); depth += 1) {
    const issuer = appleIssuerOf(top);
    if (!issuer || chain.some((der) => der.equals(issuer.raw))) break;
    chain.push(issuer.raw);
    top = issuer;
  }
  if (chain.length === 0 && !isSelfSigned(leaf)) throw new ChainError(issuerName(leaf));
  return chain;
}
