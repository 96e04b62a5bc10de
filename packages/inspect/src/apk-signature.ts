import { summarizeCertificate } from './certificates.ts';
import { Asn1Error, cmsCertificates } from './der.ts';
import type { ApkSignatures, ApkSignatureScheme, ApkSigner } from './types.ts';
import type { ZipIndex } from './zip-index.ts';

/** APK Signature Scheme block ids (packages.md §1.7), newest first: the first one found holds the current signer. */
const SCHEME_BLOCKS: [ApkSignatureScheme, number][] = [
  ['v3.1', 0x1b93ad61],
  ['v3', 0xf05368c0],
  ['v2', 0x7109871a],
];
const MAGIC = 'APK Sig Block 42';
const MAX_BLOCK_BYTES = 64 * 1024 * 1024;
const V1_SIGNATURE = /^META-INF\/[^/]+\.(RSA|DSA|EC)$/i;
const MAX_V1_BYTES = 1024 * 1024;
/** Signers read per scheme block and v1 signature files read (an APK has one or two; lineage rotations a few). */
export const MAX_SIGNERS = 16;

class BlockFormatError extends Error {}

/** A cursor over little-endian, uint32-length-prefixed structures. */
class Reader {
  constructor(
    private readonly bytes: Buffer,
    private at = 0,
    private readonly end = bytes.length,
  ) {}

  get remaining(): number {
    return this.end - this.at;
  }

  uint32(): number {
    if (this.at + 4 > this.end) throw new BlockFormatError('truncated');
    const value = this.bytes.readUInt32LE(this.at);
    this.at += 4;
    return value;
  }

  prefixed(): Reader {
    const length = this.uint32();
    if (this.at + length > this.end) throw new BlockFormatError('length past end');
    const child = new Reader(this.bytes, this.at, this.at + length);
    this.at += length;
    return child;
  }

  rest(): Buffer {
    return this.bytes.subarray(this.at, this.end);
  }
}

/** The id → value pairs of the APK Signing Block that sits right before the central directory, or null. */
export async function readSigningBlock(zip: ZipIndex): Promise<Map<number, Buffer> | null> {
  const cdOffset = zip.centralDirectory.offset;
  if (cdOffset < 32) return null;
  const footer = await zip.readRaw(cdOffset - 24, 24);
  if (footer.toString('latin1', 8, 24) !== MAGIC) return null;
  const size = Number(footer.readBigUInt64LE(0));
  const start = cdOffset - size - 8;
  if (size < 24 || size > MAX_BLOCK_BYTES || start < 0) return null;
  const block = await zip.readRaw(start, size + 8);
  if (Number(block.readBigUInt64LE(0)) !== size) return null;
  const pairs = new Map<number, Buffer>();
  let at = 8;
  while (at + 12 <= block.length - 24) {
    const length = Number(block.readBigUInt64LE(at));
    if (length < 4 || at + 8 + length > block.length - 24) return pairs;
    pairs.set(block.readUInt32LE(at + 8), block.subarray(at + 12, at + 8 + length));
    at += 8 + length;
  }
  return pairs;
}

/** First certificate of every signer in a v2/v3/v3.1 block value. */
export function certificatesOfSchemeBlock(value: Buffer): Buffer[] {
  const certificates: Buffer[] = [];
  try {
    const signers = new Reader(value).prefixed();
    while (signers.remaining > 0 && certificates.length < MAX_SIGNERS) {
      const signer = signers.prefixed();
      const signedData = signer.prefixed();
      signedData.prefixed(); // digests
      const certs = signedData.prefixed();
      if (certs.remaining > 0) certificates.push(Buffer.from(certs.prefixed().rest()));
    }
  } catch (error) {
    if (!(error instanceof BlockFormatError)) throw error;
  }
  return certificates;
}

async function v1Certificates(zip: ZipIndex): Promise<Buffer[]> {
  const certificates: Buffer[] = [];
  let files = 0;
  for (const name of zip.entries.keys()) {
    if (!V1_SIGNATURE.test(name)) continue;
    if (++files > MAX_SIGNERS) break;
    const bytes = await zip.readEntry(name, MAX_V1_BYTES);
    try {
      const { all, signers } = cmsCertificates(bytes);
      certificates.push(...(signers.length > 0 ? signers.slice(0, MAX_SIGNERS) : all.slice(0, 1)));
    } catch (error) {
      // A signature file that is no PKCS#7 is reported by the absence of its signer.
      if (!(error instanceof Asn1Error)) throw error;
    }
  }
  return certificates;
}

/** Signer certificates of every scheme; the current signer first (v3.1 > v3 > v2 > v1). Displays only, verifies nothing. */
export async function readApkSignatures(zip: ZipIndex): Promise<ApkSignatures> {
  const found: { scheme: ApkSignatureScheme; der: Buffer }[] = [];
  const block = await readSigningBlock(zip);
  for (const [scheme, id] of SCHEME_BLOCKS) {
    const value = block?.get(id);
    if (value) found.push(...certificatesOfSchemeBlock(value).map((der) => ({ scheme, der })));
  }
  found.push(...(await v1Certificates(zip)).map((der) => ({ scheme: 'v1' as const, der })));
  const signers = new Map<string, ApkSigner>();
  const schemes = new Set<ApkSignatureScheme>();
  for (const { scheme, der } of found) {
    schemes.add(scheme);
    const summary = summarizeCertificate(der);
    if (!summary) continue;
    const known = signers.get(summary.sha256);
    if (known) {
      if (!known.schemes.includes(scheme)) known.schemes.push(scheme);
    } else {
      signers.set(summary.sha256, { ...summary, schemes: [scheme] });
    }
  }
  const order: ApkSignatureScheme[] = ['v1', 'v2', 'v3', 'v3.1'];
  for (const signer of signers.values()) signer.schemes.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return { schemes: order.filter((scheme) => schemes.has(scheme)), signers: [...signers.values()] };
}
