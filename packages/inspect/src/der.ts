/**
 * A minimal BER/DER reader that keeps byte offsets, so certificates come out byte-exact
 * (their fingerprints must equal apksigner's and Keychain's) and BER indefinite lengths work.
 */
export interface Asn1Node {
  /** First identifier octet, e.g. 0x30 SEQUENCE, 0xa0 [0] constructed. */
  tag: number;
  constructed: boolean;
  /** The whole TLV, from identifier to end of content (end-of-contents octets included). */
  start: number;
  end: number;
  contentStart: number;
  contentEnd: number;
  children: Asn1Node[];
}

export class Asn1Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Asn1Error';
  }
}

/** Limits of one parse (docs/parsers.md): CMS, certificates and DER entitlements use a few hundred nodes. */
export const DER_LIMITS = { maxDepth: 64, maxNodes: 100_000 } as const;

interface NodeBudget {
  left: number;
}

function readNode(bytes: Uint8Array, offset: number, limit: number, depth: number, budget: NodeBudget): Asn1Node {
  if (depth > DER_LIMITS.maxDepth) throw new Asn1Error('nesting too deep');
  if (--budget.left < 0) throw new Asn1Error('too many nodes');
  if (offset + 2 > limit) throw new Asn1Error('truncated header');
  const tag = bytes[offset] as number;
  if ((tag & 0x1f) === 0x1f) throw new Asn1Error('high tag numbers are not used in CMS');
  const constructed = (tag & 0x20) !== 0;
  let cursor = offset + 1;
  const first = bytes[cursor++] as number;
  let length: number | null;
  if (first < 0x80) length = first;
  else if (first === 0x80) length = null;
  else {
    const count = first & 0x7f;
    if (count > 6 || cursor + count > limit) throw new Asn1Error('bad length');
    length = 0;
    for (let i = 0; i < count; i += 1) length = length * 256 + (bytes[cursor++] as number);
  }
  const contentStart = cursor;
  const children: Asn1Node[] = [];
  if (length === null) {
    if (!constructed) throw new Asn1Error('indefinite length on a primitive');
    let at = contentStart;
    for (;;) {
      if (at + 2 > limit) throw new Asn1Error('missing end-of-contents');
      if (bytes[at] === 0 && bytes[at + 1] === 0) break;
      const child = readNode(bytes, at, limit, depth + 1, budget);
      children.push(child);
      at = child.end;
    }
    return { tag, constructed, start: offset, end: at + 2, contentStart, contentEnd: at, children };
  }
  const contentEnd = contentStart + length;
  if (contentEnd > limit) throw new Asn1Error('content runs past its parent');
  if (constructed) {
    let at = contentStart;
    while (at < contentEnd) {
      const child = readNode(bytes, at, contentEnd, depth + 1, budget);
      children.push(child);
      at = child.end;
    }
  }
  return { tag, constructed, start: offset, end: contentEnd, contentStart, contentEnd, children };
}

/** The TLV at `offset` and everything inside it; throws Asn1Error on malformed input or past DER_LIMITS. */
export function parseAsn1(bytes: Uint8Array, offset = 0): Asn1Node {
  return readNode(bytes, offset, bytes.length, 0, { left: DER_LIMITS.maxNodes });
}

export function child(node: Asn1Node | undefined, index: number): Asn1Node | undefined {
  return node?.children[index];
}

/** The content of an OCTET STRING, joining the chunks of a constructed (BER) one. */
export function octetStringContent(bytes: Uint8Array, node: Asn1Node): Buffer {
  if (!node.constructed) return Buffer.from(bytes.subarray(node.contentStart, node.contentEnd));
  return Buffer.concat(node.children.map((part) => octetStringContent(bytes, part)));
}

const OID_SIGNED_DATA = '2a864886f70d010702';

/** The `SignedData` SEQUENCE inside a CMS ContentInfo, or null when it is something else. */
export function signedData(bytes: Uint8Array): Asn1Node | null {
  const root = parseAsn1(bytes);
  const type = child(root, 0);
  if (root.tag !== 0x30 || type?.tag !== 0x06) return null;
  if (Buffer.from(bytes.subarray(type.contentStart, type.contentEnd)).toString('hex') !== OID_SIGNED_DATA) return null;
  const content = child(child(root, 1), 0);
  return content?.tag === 0x30 ? content : null;
}

/** The encapsulated content of a CMS SignedData (what a .mobileprovision wraps); null when detached. */
export function cmsSignedContent(bytes: Uint8Array): Buffer | null {
  const data = signedData(bytes);
  const encap = child(data ?? undefined, 2);
  const explicit = child(encap, 1);
  const octets = child(explicit, 0);
  if (!octets) return null;
  return octetStringContent(bytes, octets);
}

export interface CmsCertificates {
  /** Every certificate in the `certificates` field, byte-exact DER. */
  all: Buffer[];
  /** The certificates named by the signerInfos (issuer + serial), in signer order. */
  signers: Buffer[];
}

function slice(bytes: Uint8Array, node: Asn1Node | undefined): Buffer {
  return node ? Buffer.from(bytes.subarray(node.start, node.end)) : Buffer.alloc(0);
}

/** Issuer and serial TLVs of a certificate, for matching a SignerInfo's IssuerAndSerialNumber. */
function issuerAndSerial(bytes: Uint8Array, certificate: Asn1Node): string {
  const tbs = child(certificate, 0);
  const offset = child(tbs, 0)?.tag === 0xa0 ? 1 : 0;
  return `${slice(bytes, child(tbs, offset)).toString('hex')}:${slice(bytes, child(tbs, offset + 2)).toString('hex')}`;
}

export function cmsCertificates(bytes: Uint8Array): CmsCertificates {
  const data = signedData(bytes);
  if (!data) return { all: [], signers: [] };
  const certificatesField = data.children.find((node) => node.tag === 0xa0);
  const certificates = (certificatesField?.children ?? []).filter((node) => node.tag === 0x30);
  const signerInfos = data.children[data.children.length - 1];
  const byKey = new Map(certificates.map((node) => [issuerAndSerial(bytes, node), node]));
  const signers: Buffer[] = [];
  for (const info of signerInfos?.tag === 0x31 ? signerInfos.children : []) {
    const sid = child(info, 1);
    if (sid?.tag !== 0x30) continue;
    const key = `${slice(bytes, child(sid, 1)).toString('hex')}:${slice(bytes, child(sid, 0)).toString('hex')}`;
    const match = byKey.get(key);
    if (match) signers.push(slice(bytes, match));
  }
  return { all: certificates.map((node) => slice(bytes, node)), signers };
}
