import { X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { makeTestCa } from '@release/inspect/testing/identities.ts';
import type { TestIdentity } from '@release/inspect/testing/signing.ts';
import { APPLE_CAS } from '../apple-pki.ts';

/** One of Apple's shipped CAs by file name (AppleDevCACertG3.pem, AppleRootCACert.pem …). */
export function appleCa(file: string): X509Certificate {
  const ca = APPLE_CAS.find((entry) => entry.file === file);
  if (!ca) throw new Error(`${file} is not shipped`);
  return new X509Certificate(ca.pem);
}

/** A test CA with the very name of one of Apple's intermediates (its subject copied), but a key of its own. */
export function caNamedLike(file = 'AppleDevCACertG3.pem'): TestIdentity {
  const subject = forge.pki.certificateFromPem(appleCa(file).toString()).subject.attributes;
  return makeTestCa(subject.map(({ type, value, valueTagClass }) => ({ type, value, valueTagClass })));
}
