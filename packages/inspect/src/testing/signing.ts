import { createHash, generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { currentValidity } from './validity.ts';

/** Self-signed certificates and CMS SignedData for tests, built with node-forge (RSA only). */
export interface TestIdentity {
  certificate: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
  der: Buffer;
  sha256: string;
}

/** A current certificate (see validity.ts). */
export function makeIdentity(commonName: string, serial = '01'): TestIdentity {
  // Node generates the key (fast); forge builds the certificate.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = serial;
  const validity = currentValidity();
  certificate.validity.notBefore = validity.from;
  certificate.validity.notAfter = validity.to;
  const attributes = [
    { name: 'commonName', value: commonName },
    { name: 'organizationalUnitName', value: 'TEAM123456' },
  ];
  certificate.setSubject(attributes);
  certificate.setIssuer(attributes);
  certificate.sign(key, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
  return { certificate, key, der, sha256: createHash('sha256').update(der).digest('hex') };
}

/**
 * A signing time a verifier would accept from `certificate`: `now` (whole seconds, as UTCTime keeps), moved
 * inside the certificate's validity when it lies outside (an explicitly expired or not yet valid test certificate).
 */
export function signingTimeWithin(certificate: forge.pki.Certificate, now: number = Date.now()): Date {
  const { notBefore, notAfter } = certificate.validity;
  const at = Math.min(Math.max(now, notBefore.getTime()), notAfter.getTime());
  return new Date(Math.floor(at / 1000) * 1000);
}

/**
 * CMS SignedData (DER) over `content`; detached for APK v1 signatures, attached for profiles. Signed at
 * `signingTime`, by default within the signer's validity (signingTimeWithin).
 */
export function signCms(
  content: Buffer,
  signer: TestIdentity,
  options: { detached?: boolean; extraCertificates?: TestIdentity[]; signingTime?: Date } = {},
): Buffer {
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(content.toString('binary'));
  for (const extra of options.extraCertificates ?? []) p7.addCertificate(extra.certificate);
  p7.addCertificate(signer.certificate);
  p7.addSigner({
    key: signer.key,
    certificate: signer.certificate,
    digestAlgorithm: forge.pki.oids.sha256 as string,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType as string, value: forge.pki.oids.data as string },
      { type: forge.pki.oids.messageDigest as string },
      {
        type: forge.pki.oids.signingTime as string,
        value: (options.signingTime ?? signingTimeWithin(signer.certificate)).toISOString(),
      },
    ],
  });
  p7.sign({ detached: options.detached ?? false });
  return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
}

function tlvIndefinite(tag: number, parts: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from([tag, 0x80]), ...parts, Buffer.from([0, 0])]);
}

function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  const head =
    length < 0x80
      ? Buffer.from([tag, length])
      : length < 0x100
        ? Buffer.from([tag, 0x81, length])
        : Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  return Buffer.concat([head, content]);
}

interface Tlv {
  tag: number;
  content: Buffer;
  whole: Buffer;
}

function children(content: Buffer): Tlv[] {
  const out: Tlv[] = [];
  let at = 0;
  while (at < content.length) {
    const tag = content[at] as number;
    let length = content[at + 1] as number;
    let header = 2;
    if (length & 0x80) {
      const count = length & 0x7f;
      length = 0;
      for (let i = 0; i < count; i += 1) length = length * 256 + (content[at + 2 + i] as number);
      header += count;
    }
    out.push({
      tag,
      content: content.subarray(at + header, at + header + length),
      whole: content.subarray(at, at + header + length),
    });
    at += header + length;
  }
  return out;
}

/**
 * Re-encodes an attached CMS the way Apple's older tools did: indefinite lengths and the content split
 * into 1000-byte OCTET STRING chunks (a naive `<?xml…</plist>` slice breaks on this).
 */
export function toBerChunked(der: Buffer): Buffer {
  const [contentInfo] = children(der);
  const [oid, explicit] = children(contentInfo?.content ?? Buffer.alloc(0));
  const signedData = children(explicit?.content ?? Buffer.alloc(0))[0];
  const fields = children(signedData?.content ?? Buffer.alloc(0));
  const encap = fields[2];
  const [eType, eExplicit] = children(encap?.content ?? Buffer.alloc(0));
  const octets = children(eExplicit?.content ?? Buffer.alloc(0))[0]?.content ?? Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for (let at = 0; at < octets.length; at += 1000) chunks.push(tlv(0x04, octets.subarray(at, at + 1000)));
  const berEncap = tlvIndefinite(0x30, [
    eType?.whole ?? Buffer.alloc(0),
    tlvIndefinite(0xa0, [tlvIndefinite(0x24, chunks)]),
  ]);
  const berSignedData = tlvIndefinite(
    0x30,
    fields.map((field, index) => (index === 2 ? berEncap : field.whole)),
  );
  return tlvIndefinite(0x30, [oid?.whole ?? Buffer.alloc(0), tlvIndefinite(0xa0, [berSignedData])]);
}

/** A fixed P-256 self-signed certificate (CN=ec-test); forge cannot create EC certificates. */
export const EC_CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----
MIIBezCCASGgAwIBAgIULFxLf0EeAnMp1HGw6BuPS6nSGzwwCgYIKoZIzj0EAwIw
EjEQMA4GA1UEAwwHZWMtdGVzdDAgFw0yNjExMjIwMjIyNDdaGA8yMTI2MTAyOTAy
MjI0N1owEjEQMA4GA1UEAwwHZWMtdGVzdDBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABFpFF+B8JeAX29e+bbXK1YkUR9EBYwt1fEH18xN7RJ3qYsFRu8shL7AG0J/x
TL28VApOI1d8gOBCtwC5JjDccgmjUzBRMB0GA1UdDgQWBBT1lkY+GevzN6MnA61b
/pw2CCJAmTAfBgNVHSMEGDAWgBT1lkY+GevzN6MnA61b/pw2CCJAmTAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQD6L7tTB2hFy0NQJj9zDW8ytGIQ
vsWsnBMMuINu2RYk+gIgQPnGvrums1b7cdl7AV+JirBLZjSCKay0a5EY49OdQUU=
-----END CERTIFICATE-----`;
export const EC_CERTIFICATE_SHA256 = '79f7db52088ebac3b3b135b047e2d9191e646a1aa9f566bc819da9030f3eb6b1';

export function ecCertificateDer(): Buffer {
  return Buffer.from(EC_CERTIFICATE_PEM.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
}
