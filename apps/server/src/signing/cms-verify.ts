import { createHash, verify, X509Certificate } from 'node:crypto';
import { child, cmsCertificates, octetStringContent, signedData, type Asn1Node } from '@release/inspect/der.ts';
import { parsePlistDict, plistDataArray } from '@release/inspect/plist.ts';
import type { CodeDirectory } from './code-signature.ts';

/** OIDs (DER content, hex) met in code signatures. */
const OID = {
  contentType: '2a864886f70d010903',
  messageDigest: '2a864886f70d010904',
  signingTime: '2a864886f70d010905',
  appleCdHashes: '2a864886f763640901',
  appleCdHashes2: '2a864886f763640902',
} as const;

const DIGESTS: Record<string, string> = {
  '2b0e03021a': 'sha1',
  '608648016503040201': 'sha256',
  '608648016503040202': 'sha384',
  '608648016503040203': 'sha512',
};

export type CmsFailure = 'unreadable' | 'noSigner' | 'messageDigest' | 'signature' | 'cdHashes';

export interface CmsVerification {
  /** The certificate named by the signer info, DER. */
  signerCertificate: Buffer | null;
  digestAlgorithm: string | null;
  signingTime: Date | null;
  /** Apple attribute 1.2.840.113635.100.9.1: the truncated cdhash of every CodeDirectory, hex. */
  cdHashes: string[] | null;
  /** Apple attribute 1.2.840.113635.100.9.2: (digest algorithm, full CodeDirectory digest hex) pairs. */
  cdHashes2: Array<{ algorithm: string; digest: string }> | null;
  /** Empty when the CMS signs the primary CodeDirectory with the signer's key and names every CodeDirectory right. */
  failures: CmsFailure[];
}

const hex = (bytes: Uint8Array, node: Asn1Node) =>
  Buffer.from(bytes.subarray(node.contentStart, node.contentEnd)).toString('hex');

interface SignerInfo {
  digestAlgorithm: string | null;
  signedAttributes: Asn1Node | null;
  signature: Buffer;
}

function readSignerInfo(cms: Buffer): SignerInfo | null {
  const data = signedData(cms);
  const infos = data?.children[data.children.length - 1];
  const info = infos?.tag === 0x31 ? child(infos, 0) : undefined;
  if (!info) return null;
  const digestOid = child(child(info, 2), 0);
  const attributes = info.children.find((node, index) => index > 2 && node.tag === 0xa0) ?? null;
  const signatureNode = info.children.find((node, index) => index > 3 && node.tag === 0x04);
  if (!signatureNode) return null;
  return {
    digestAlgorithm: digestOid ? (DIGESTS[hex(cms, digestOid)] ?? null) : null,
    signedAttributes: attributes,
    signature: octetStringContent(cms, signatureNode),
  };
}

function attributeValues(cms: Buffer, attributes: Asn1Node | null, oid: string): Asn1Node[] {
  for (const attribute of attributes?.children ?? []) {
    const type = child(attribute, 0);
    if (type && hex(cms, type) === oid) return child(attribute, 1)?.children ?? [];
  }
  return [];
}

function timeOf(cms: Buffer, node: Asn1Node | undefined): Date | null {
  if (!node) return null;
  const text = Buffer.from(cms.subarray(node.contentStart, node.contentEnd)).toString('latin1');
  const match = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) return null;
  const [, y = '', mo = '', d = '', h = '', mi = '', s = ''] = match;
  const year = y.length === 2 ? (Number(y) < 50 ? 2000 + Number(y) : 1900 + Number(y)) : Number(y);
  return new Date(Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
}

/**
 * Verifies the detached CMS of an embedded signature against its CodeDirectories: the messageDigest is the
 * digest of the primary CodeDirectory, the signature over the signed attributes verifies with the signer's
 * certificate, and Apple's cdhash attributes (when present) name each CodeDirectory. Trust in the chain
 * (Apple WWDR, the profile) is the caller's business.
 */
export function verifyCodeDirectoryCms(cms: Buffer, codeDirectories: CodeDirectory[]): CmsVerification {
  const result: CmsVerification = {
    signerCertificate: null,
    digestAlgorithm: null,
    signingTime: null,
    cdHashes: null,
    cdHashes2: null,
    failures: [],
  };
  let info: SignerInfo | null;
  try {
    info = readSignerInfo(cms);
    result.signerCertificate = cmsCertificates(cms).signers[0] ?? null;
  } catch {
    return { ...result, failures: ['unreadable'] };
  }
  const primary = codeDirectories.find((cd) => cd.slot === 0);
  if (!info?.signedAttributes || !info.digestAlgorithm || !primary) return { ...result, failures: ['unreadable'] };
  result.digestAlgorithm = info.digestAlgorithm;
  const attributes = info.signedAttributes;

  const digestNode = attributeValues(cms, attributes, OID.messageDigest)[0];
  const expectedDigest = createHash(info.digestAlgorithm).update(primary.data).digest();
  if (!digestNode || !octetStringContent(cms, digestNode).equals(expectedDigest)) result.failures.push('messageDigest');
  result.signingTime = timeOf(cms, attributeValues(cms, attributes, OID.signingTime)[0]);

  if (!result.signerCertificate) result.failures.push('noSigner');
  else {
    // The signature covers the DER of the attributes as a SET OF (tag 0x31), not as the [0] IMPLICIT field.
    const signed = Buffer.from(cms.subarray(attributes.start, attributes.end));
    signed[0] = 0x31;
    let isValid = false;
    try {
      isValid = verify(
        info.digestAlgorithm,
        signed,
        new X509Certificate(result.signerCertificate).publicKey,
        info.signature,
      );
    } catch {
      isValid = false;
    }
    if (!isValid) result.failures.push('signature');
  }

  const plistNode = attributeValues(cms, attributes, OID.appleCdHashes)[0];
  if (plistNode) {
    const dict = parsePlistDict(octetStringContent(cms, plistNode));
    result.cdHashes = dict ? plistDataArray(dict, 'cdhashes').map((bytes) => Buffer.from(bytes).toString('hex')) : [];
    const expected = codeDirectories.map((cd) => cd.cdhash.toString('hex'));
    if (result.cdHashes.join() !== expected.join()) result.failures.push('cdHashes');
  }
  const pairs = attributeValues(cms, attributes, OID.appleCdHashes2);
  if (pairs.length > 0) {
    result.cdHashes2 = pairs.map((pair) => {
      const oid = child(pair, 0);
      const digest = child(pair, 1);
      return {
        algorithm: oid ? (DIGESTS[hex(cms, oid)] ?? 'unknown') : 'unknown',
        digest: digest ? octetStringContent(cms, digest).toString('hex') : '',
      };
    });
    const matches = result.cdHashes2.every(
      ({ algorithm, digest }) =>
        algorithm !== 'unknown' &&
        codeDirectories.some((cd) => createHash(algorithm).update(cd.data).digest('hex') === digest),
    );
    if (!matches && !result.failures.includes('cdHashes')) result.failures.push('cdHashes');
  }
  return result;
}
