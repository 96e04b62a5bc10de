import { createHash, X509Certificate } from 'node:crypto';
import type { CertificateSummary } from './types.ts';
import { certificateSubject } from './x509-name.ts';

/** OpenSSL escapes `,+"\\<>;#=` with a backslash and control bytes as `\\XX`; none of the former are hex digits. */
function unescapeDnValue(value: string): string {
  return value.replace(/\\([0-9A-Fa-f]{2}|.)/g, (_match, escaped: string) =>
    escaped.length === 2 ? String.fromCharCode(Number.parseInt(escaped, 16)) : escaped,
  );
}

function commonNameOf(distinguishedName: string): string | null {
  for (const line of distinguishedName.split('\n')) {
    if (line.startsWith('CN=')) return unescapeDnValue(line.slice(3));
  }
  return null;
}

/**
 * Reads an X.509 certificate with Node's own parser (node-forge rejects EC keys).
 * Fingerprints are taken over the exact DER given. Returns null when it is not a certificate.
 */
export function summarizeCertificate(der: Uint8Array): CertificateSummary | null {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(der);
  } catch {
    return null;
  }
  return {
    // Node prints UTF-8 names as Latin-1; read the CN from the DER when it can.
    commonName: certificateSubject(der)?.CN ?? commonNameOf(certificate.subject),
    subject: certificate.subject.replaceAll('\n', ', '),
    issuer: certificate.issuer.replaceAll('\n', ', '),
    serialNumber: certificate.serialNumber.toUpperCase(),
    sha1: createHash('sha1').update(der).digest('hex').toUpperCase(),
    sha256: createHash('sha256').update(der).digest('hex'),
    validFrom: new Date(certificate.validFromDate.getTime()),
    validTo: new Date(certificate.validToDate.getTime()),
  };
}
