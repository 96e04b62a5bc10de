import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import type forge from 'node-forge';
import { summarizeCertificate } from './certificates.ts';
import { lazyRequire } from './lazy-require.ts';
import type { CertificateSummary } from './types.ts';
import { certificateSubject } from './x509-name.ts';

/** Why a .p12 was refused; the caller maps each one to a Chinese message. */
export type P12FailureReason =
  | 'notP12'
  | 'wrongPassword'
  | 'noPrivateKey'
  | 'noCertificate'
  | 'keyMismatch'
  | 'unsupportedKey'
  | 'tooCostly';

export class P12Error extends Error {
  readonly reason: P12FailureReason;
  constructor(reason: P12FailureReason, options?: { cause?: unknown }) {
    super(`p12: ${reason}`, options);
    this.name = 'P12Error';
    this.reason = reason;
  }
}

/** What a signer needs from a .p12: the leaf certificate (byte-exact DER), its private key and the rest of the chain. */
export interface P12Identity {
  certificate: CertificateSummary & { der: Buffer };
  /** Team ID: the OU of an Apple signing certificate's subject. */
  teamId: string | null;
  /** Organisation (O) of the subject, Apple's team name. */
  teamName: string | null;
  privateKey: KeyObject;
  /** PKCS#8 PEM of the private key, for sealing at rest. */
  privateKeyPem: string;
  /** Other certificates in the file (intermediates), DER. */
  chain: Buffer[];
}

/**
 * Key-derivation iterations one `openP12` may spend, summed over the MAC and every encrypted bag (docs/parsers.md).
 * The file names its own counts, and forge runs them in JavaScript on the calling thread: a count of 2^31 would
 * hold it for hours (10,000 take ~0.4 s). Keychain, OpenSSL and Windows export 2,000-2,048 per step, Java 10,000,
 * and there are about three steps (twice for a non-ASCII password).
 */
export const P12_KDF_ITERATIONS = 100_000;

let kdfBudget: { left: number } | null = null;

function spend(iterations: number): void {
  if (!kdfBudget) return;
  kdfBudget.left -= Number.isFinite(iterations) && iterations > 0 ? iterations : 1;
  if (kdfBudget.left < 0) throw new P12Error('tooCostly');
}

// forge looks these up on its shared objects at each call (`p12.generateKey`, `pki.pbe.generatePkcs12Key`,
// `forge.pkcs5.pbkdf2`): counting them there bounds every derivation forge makes while a budget is open.
type Derive = (...args: unknown[]) => unknown;
function countDerivations(lib: typeof forge): void {
  const pbe = (lib.pki as unknown as { pbe: { generatePkcs12Key: Derive } }).pbe;
  const derivations = [
    { owner: lib.pkcs12 as unknown as Record<string, Derive>, name: 'generateKey', countAt: 3 },
    { owner: pbe as unknown as Record<string, Derive>, name: 'generatePkcs12Key', countAt: 3 },
    { owner: lib.pkcs5 as unknown as Record<string, Derive>, name: 'pbkdf2', countAt: 2 },
  ];
  for (const { owner, name, countAt } of derivations) {
    const derive = owner[name] as Derive;
    owner[name] = (...args: unknown[]) => {
      spend(Number(args[countAt]));
      return derive(...args);
    };
  }
}

/** node-forge, loaded by the first .p12 opened (not when the server starts), its derivations counted. */
const forgeLib = lazyRequire<typeof forge>('node-forge', import.meta.url, countDerivations);

function withKdfBudget<T>(open: () => T): T {
  kdfBudget = { left: P12_KDF_ITERATIONS };
  try {
    return open();
  } finally {
    kdfBudget = null;
  }
}

const derOfAsn1 = (asn1: forge.asn1.Asn1) => Buffer.from(forgeLib().asn1.toDer(asn1).getBytes(), 'binary');

function derOfBag(bag: forge.pkcs12.Bag): Buffer | null {
  // forge keeps the parsed tbsCertificate, so re-encoding gives back the original bytes; certificates
  // it cannot model (EC keys) come as plain ASN.1, which re-encodes unchanged as well.
  const asn1 = bag.cert ? forgeLib().pki.certificateToAsn1(bag.cert) : (bag as { asn1?: forge.asn1.Asn1 }).asn1;
  return asn1 ? derOfAsn1(asn1) : null;
}

function readAsn1(bytes: Buffer): forge.asn1.Asn1 {
  try {
    return forgeLib().asn1.fromDer(forgeLib().util.createBuffer(bytes.toString('binary')));
  } catch (error) {
    throw new P12Error('notP12', { cause: error });
  }
}

function openPfx(bytes: Buffer, password: string): forge.pkcs12.Pkcs12Pfx {
  try {
    return forgeLib().pkcs12.pkcs12FromAsn1(readAsn1(bytes), false, password);
  } catch (error) {
    if (error instanceof P12Error) throw error;
    const message = error instanceof Error ? error.message : '';
    // Only a structure that is a PFX gets as far as the MAC or the decryption.
    if (/not an PKCS#12 PFX|Unsupported PKCS#12 PFX|ASN\.1 object is not|Too few bytes/i.test(message))
      throw new P12Error('notP12', { cause: error });
    // The MAC key comes from the password as UTF-16 (forge and OpenSSL agree), but OpenSSL 3 derives PBES2
    // (AES) keys from its UTF-8 bytes where forge takes UTF-16 code units. So once the MAC has accepted a
    // non-ASCII password, decrypt again with its UTF-8 bytes, the MAC (already checked) left out.
    if (!/MAC could not be verified/.test(message) && /[^\x00-\x7f]/.test(password)) {
      const pfx = readAsn1(bytes);
      if (Array.isArray(pfx.value) && pfx.value.length > 2) pfx.value = pfx.value.slice(0, 2);
      try {
        return forgeLib().pkcs12.pkcs12FromAsn1(pfx, false, forgeLib().util.encodeUtf8(password));
      } catch (retryError) {
        if (retryError instanceof P12Error) throw retryError;
        // Fall through: the password is wrong after all.
      }
    }
    throw new P12Error('wrongPassword', { cause: error });
  }
}

/**
 * Opens a PKCS#12 file: legacy RC2-40/3DES with a SHA-1 MAC (Keychain exports) and OpenSSL 3's
 * PBES2/AES-256 with a SHA-256 MAC both work (node-forge decrypts). The leaf is the certificate whose
 * public key is the private key's; a file whose certificates all belong to other keys is refused.
 */
export function openP12(bytes: Buffer, password: string): P12Identity {
  const pfx = withKdfBudget(() => openPfx(bytes, password));
  const bags = pfx.safeContents.flatMap((contents) => contents.safeBags);
  const isKeyBag = (bag: forge.pkcs12.Bag) =>
    bag.type === forgeLib().pki.oids.pkcs8ShroudedKeyBag || bag.type === forgeLib().pki.oids.keyBag;
  // forge models RSA keys only: for another key (EC P-256, as HarmonyOS release certificates carry) it leaves `key`
  // null and keeps the decrypted PKCS#8 PrivateKeyInfo as `asn1`, which node:crypto reads.
  const keyBag = bags.find((bag) => bag.key) ?? bags.find((bag) => isKeyBag(bag) && (bag as { asn1?: unknown }).asn1);
  if (!keyBag) {
    if (bags.some(isKeyBag)) throw new P12Error('unsupportedKey');
    throw new P12Error('noPrivateKey');
  }
  let privateKey: KeyObject;
  try {
    privateKey = keyBag.key
      ? createPrivateKey(forgeLib().pki.privateKeyToPem(keyBag.key))
      : createPrivateKey({ key: derOfAsn1((keyBag as { asn1: forge.asn1.Asn1 }).asn1), format: 'der', type: 'pkcs8' });
  } catch (error) {
    throw new P12Error('unsupportedKey', { cause: error });
  }
  const publicDer = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const certificates = bags.flatMap((bag) => {
    if (bag.type !== forgeLib().pki.oids.certBag) return [];
    const der = derOfBag(bag);
    return der ? [{ der }] : [];
  });
  const isLeaf = (der: Buffer) => {
    try {
      return new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' }).equals(publicDer);
    } catch {
      return false;
    }
  };
  if (certificates.length === 0) throw new P12Error('noCertificate');
  const leaf = certificates.find((c) => isLeaf(c.der));
  const summary = leaf ? summarizeCertificate(leaf.der) : null;
  if (!leaf || !summary) throw new P12Error('keyMismatch');
  const subject = certificateSubject(leaf.der);
  return {
    certificate: { ...summary, commonName: subject?.CN ?? summary.commonName, der: leaf.der },
    teamId: subject?.OU ?? null,
    teamName: subject?.O ?? null,
    privateKey,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    chain: certificates.filter((c) => c !== leaf).map((c) => c.der),
  };
}
