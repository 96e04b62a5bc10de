import { X509Certificate } from 'node:crypto';
import { summarizeCertificate } from './certificates.ts';
import { Asn1Error, cmsCertificates, cmsSignedContent } from './der.ts';
import { type Json, objectAt, stringAt, stringsAt } from './json-fields.ts';
import type { CertificateSummary, HarmonyProfile, HarmonyProfileType, HarmonySignature } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

/**
 * The HAP signing block (OpenHarmony hapsigner, docs/harmonyos.md): right before the central directory, a table of
 * (type, length, offset) uint32 triples, their values, then a 32-byte footer — block count (uint32), block size
 * (uint64, the whole block), the magic `<hap sign block>` and the scheme version (uint32). Offsets are from the
 * block's start. The signature value is a PKCS#7 SignedData carrying the signer's chain; the profile value a
 * PKCS#7 SignedData whose content is the profile's JSON.
 */
const MAGIC = '<hap sign block>';
const FOOTER_BYTES = 32;
const MAX_BLOCK_BYTES = 64 * 1024 * 1024;
const MAX_SUB_BLOCKS = 64;
export const HAP_SIGNATURE_BLOCK = 0x20000000;
export const HAP_PROFILE_BLOCK = 0x20000002;
/** Longest chain followed from the signer up to its root. */
const MAX_CHAIN = 8;
/** A profile's JSON is a few KB; JSON.parse of 1 MiB at any nesting takes < 0.5 s. */
const MAX_PROFILE_BYTES = 1024 * 1024;

/** Sub-block type → value of the signing block before the central directory; null when the file has none. */
export async function readHapSigningBlock(zip: ZipIndex): Promise<Map<number, Buffer> | null> {
  const cdOffset = zip.centralDirectory.offset;
  if (cdOffset < FOOTER_BYTES) return null;
  const footer = await zip.readRaw(cdOffset - FOOTER_BYTES, FOOTER_BYTES);
  if (footer.toString('latin1', 12, 28) !== MAGIC) return null;
  const count = footer.readUInt32LE(0);
  const size = Number(footer.readBigUInt64LE(4));
  if (size < FOOTER_BYTES || size > MAX_BLOCK_BYTES || size > cdOffset || count > MAX_SUB_BLOCKS) return null;
  const block = await zip.readRaw(cdOffset - size, size);
  const valuesEnd = size - FOOTER_BYTES;
  if (count * 12 > valuesEnd) return null;
  const values = new Map<number, Buffer>();
  for (let index = 0; index < count; index++) {
    const type = block.readUInt32LE(index * 12);
    const length = block.readUInt32LE(index * 12 + 4);
    const offset = block.readUInt32LE(index * 12 + 8);
    if (offset + length > valuesEnd) continue;
    values.set(type, block.subarray(offset, offset + length));
  }
  return values;
}

function certificatesOf(cms: Buffer): { all: Buffer[]; signers: Buffer[] } {
  try {
    return cmsCertificates(cms);
  } catch (error) {
    if (error instanceof Asn1Error) return { all: [], signers: [] };
    throw error;
  }
}

/** The signer's certificate first, then its issuer, its issuer's issuer … as far as the certificates in the CMS reach. */
function signerCertificates(cms: Buffer): { der: Buffer; x509: X509Certificate }[] {
  const { all, signers } = certificatesOf(cms);
  const parsed = all.flatMap((der) => {
    try {
      return [{ der, x509: new X509Certificate(der) }];
    } catch {
      return [];
    }
  });
  const signer =
    signers[0] ?? parsed.find((cert) => !parsed.some((other) => other.x509.issuer === cert.x509.subject))?.der;
  let current = parsed.find((cert) => signer && cert.der.equals(signer));
  const chain: { der: Buffer; x509: X509Certificate }[] = [];
  while (current && !chain.includes(current) && chain.length < MAX_CHAIN) {
    chain.push(current);
    const issuer = current.x509.issuer;
    if (issuer === current.x509.subject) break;
    current = parsed.find((cert) => cert.x509.subject === issuer);
  }
  return chain;
}

/** The signer first, then its issuers, summarized. */
export function signerChain(cms: Buffer): CertificateSummary[] {
  return signerCertificates(cms).flatMap((cert) => summarizeCertificate(cert.der) ?? []);
}

export function readHapSignature(value: Buffer | undefined): HarmonySignature | null {
  if (!value) return null;
  const certificates = signerCertificates(value);
  const chain = certificates.flatMap((cert) => summarizeCertificate(cert.der) ?? []);
  const signer = certificates[0]?.x509.publicKey.export({ type: 'spki', format: 'der' });
  return { certificate: chain[0] ?? null, chain, publicKey: signer?.toString('base64') ?? null };
}

function dateOf(seconds: unknown): Date | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;
}

function certificateFromPem(pem: string | null): CertificateSummary | null {
  const body = pem?.match(/-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/)?.[1];
  return body ? summarizeCertificate(Buffer.from(body.replace(/\s+/g, ''), 'base64')) : null;
}

/** debug profiles are debug; release ones distributed as enterprise* are enterprise; every other release is release. */
function profileTypeOf(declared: string | null, distribution: string | null): HarmonyProfileType {
  if (declared === 'debug') return 'debug';
  return distribution?.startsWith('enterprise') ? 'enterprise' : 'release';
}

/** The signed profile of a HAP (its JSON inside a PKCS#7); null when missing or unreadable. */
export function readHapProfile(value: Buffer | undefined): HarmonyProfile | null {
  if (!value) return null;
  let json: Json;
  try {
    const content = cmsSignedContent(value);
    if (!content || content.length > MAX_PROFILE_BYTES) return null;
    const parsed: unknown = JSON.parse(content.toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    json = parsed as Json;
  } catch (error) {
    if (error instanceof Asn1Error || error instanceof SyntaxError) return null;
    throw error;
  }
  const bundle = objectAt(json, 'bundle-info');
  const debug = objectAt(json, 'debug-info');
  const validity = objectAt(json, 'validity');
  const declaredType = stringAt(json, 'type');
  const distributionType = stringAt(json, 'app-distribution-type');
  const devices = stringsAt(debug, 'device-ids');
  return {
    type: profileTypeOf(declaredType, distributionType),
    declaredType,
    distributionType,
    bundleName: stringAt(bundle, 'bundle-name'),
    developerId: stringAt(bundle, 'developer-id'),
    appIdentifier: stringAt(bundle, 'app-identifier'),
    uuid: stringAt(json, 'uuid'),
    issuer: stringAt(json, 'issuer'),
    validFrom: dateOf(validity['not-before']),
    validTo: dateOf(validity['not-after']),
    devices,
    deviceIdType: stringAt(debug, 'device-id-type'),
    certificate: certificateFromPem(
      stringAt(bundle, 'distribution-certificate') ?? stringAt(bundle, 'development-certificate'),
    ),
    signer: signerChain(value)[0] ?? null,
  };
}

export async function readHapSigning(
  zip: ZipIndex,
): Promise<{ signature: HarmonySignature | null; profile: HarmonyProfile | null }> {
  const block = await readHapSigningBlock(zip);
  return {
    signature: readHapSignature(block?.get(HAP_SIGNATURE_BLOCK)),
    profile: readHapProfile(block?.get(HAP_PROFILE_BLOCK)),
  };
}
