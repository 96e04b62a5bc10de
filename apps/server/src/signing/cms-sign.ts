import { createHash, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { child, parseAsn1 } from '@release/inspect/der.ts';
import type { CodeDirectory } from './code-signature.ts';

/**
 * The CMS SignedData of an embedded signature (packages.md §3.3): detached, over the primary CodeDirectory,
 * SHA-256, signed attributes contentType, signingTime, messageDigest and Apple's two cdhash attributes
 * (1.2.840.113635.100.9.1: a plist of every CodeDirectory's cdhash; 9.2: each CodeDirectory's full digest),
 * certificates = the leaf and its chain. node-forge cannot add custom attributes, so the DER is written here.
 */
function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let value = length; value > 0; value = Math.floor(value / 256)) bytes.unshift(value & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body]);
};
const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
/** DER SET OF: elements in the order of their encodings. */
const set = (...items: Buffer[]) => tlv(0x31, ...[...items].sort(Buffer.compare));
const octets = (value: Buffer) => tlv(0x04, value);
const nullValue = Buffer.from([0x05, 0x00]);

function oid(text: string): Buffer {
  const [first = 0, second = 0, ...rest] = text.split('.').map(Number);
  const out: number[] = [first * 40 + second];
  for (const part of rest) {
    const chunk = [part & 0x7f];
    for (let value = Math.floor(part / 128); value > 0; value = Math.floor(value / 128))
      chunk.unshift((value & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function utcTime(date: Date): Buffer {
  const two = (n: number) => String(n).padStart(2, '0');
  const text = `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}${two(date.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, 'latin1'));
}

const OIDS = {
  signedData: '1.2.840.113549.1.7.2',
  data: '1.2.840.113549.1.7.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  cdHashes: '1.2.840.113635.100.9.1',
  cdHashes2: '1.2.840.113635.100.9.2',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

/** Apple's 9.1 value: an XML plist listing each CodeDirectory's 20-byte cdhash, tab-indented as Xcode writes it. */
export function cdHashesPlist(codeDirectories: CodeDirectory[]): Buffer {
  const entries = codeDirectories
    .map((cd) => `\t\t<data>\n\t\t${cd.cdhash.toString('base64')}\n\t\t</data>\n`)
    .join('');
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n' +
      `<plist version="1.0">\n<dict>\n\t<key>cdhashes</key>\n\t<array>\n${entries}\t</array>\n</dict>\n</plist>\n`,
    'utf8',
  );
}

function issuerAndSerial(certificate: Buffer): Buffer {
  const tbs = child(parseAsn1(certificate), 0);
  const offset = child(tbs, 0)?.tag === 0xa0 ? 1 : 0;
  const serial = child(tbs, offset);
  const issuer = child(tbs, offset + 2);
  if (!serial || !issuer) throw new Error('certificate without issuer or serial');
  return sequence(certificate.subarray(issuer.start, issuer.end), certificate.subarray(serial.start, serial.end));
}

export interface CmsSignInput {
  /** CodeDirectories in SuperBlob order; the first is the primary (slot 0) the messageDigest covers. */
  codeDirectories: CodeDirectory[];
  certificate: Buffer;
  chain: Buffer[];
  privateKey: KeyObject;
  signingTime: Date;
}

/** Builds the detached CMS (DER) that goes into the signature's BlobWrapper (slot 0x10000). */
export function signCodeDirectories(input: CmsSignInput): Buffer {
  const [primary] = input.codeDirectories;
  if (!primary) throw new Error('nothing to sign');
  if (!new X509Certificate(input.certificate).checkPrivateKey(input.privateKey))
    throw new Error('the key is not the certificate’s');
  const digestAlgorithm = sequence(oid(OIDS.sha256), nullValue);
  const cdHashes2 = input.codeDirectories.map((cd) => {
    const algorithm = cd.hashType === 1 ? 'sha1' : 'sha256';
    return sequence(oid(OIDS[algorithm]), octets(createHash(algorithm).update(cd.data).digest()));
  });
  const attributes = [
    sequence(oid(OIDS.contentType), set(oid(OIDS.data))),
    sequence(oid(OIDS.signingTime), set(utcTime(input.signingTime))),
    sequence(oid(OIDS.messageDigest), set(octets(createHash('sha256').update(primary.data).digest()))),
    sequence(oid(OIDS.cdHashes2), set(...cdHashes2)),
    sequence(oid(OIDS.cdHashes), set(octets(cdHashesPlist(input.codeDirectories)))),
  ];
  const signedAttributes = set(...attributes);
  const isEc = input.privateKey.asymmetricKeyType === 'ec';
  const signature = sign('sha256', signedAttributes, input.privateKey);
  const signerInfo = sequence(
    tlv(0x02, Buffer.from([1])),
    issuerAndSerial(input.certificate),
    digestAlgorithm,
    // The same SET, tagged [0] IMPLICIT inside the SignerInfo.
    Buffer.concat([Buffer.from([0xa0]), signedAttributes.subarray(1)]),
    isEc ? sequence(oid(OIDS.ecdsaWithSha256)) : sequence(oid(OIDS.rsaEncryption), nullValue),
    octets(signature),
  );
  const signedData = sequence(
    tlv(0x02, Buffer.from([1])),
    set(digestAlgorithm),
    sequence(oid(OIDS.data)),
    tlv(0xa0, input.certificate, ...input.chain),
    set(signerInfo),
  );
  return sequence(oid(OIDS.signedData), tlv(0xa0, signedData));
}
