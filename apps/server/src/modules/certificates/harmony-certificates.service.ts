import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { harmonyPublicKey } from '@release/inspect';
import { CertMessages, type HarmonyCertificateRow, HarmonyCertMessages } from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { checkCurrent, openIdentity } from './certificate-check.ts';
import type { CertificateUpload } from './certificates.service.ts';
import type { HarmonyCertificateListRecord, HarmonyCertificatesRepository } from './harmony-certificates.repository.ts';

function present(row: HarmonyCertificateListRecord): HarmonyCertificateRow {
  return {
    id: row.id,
    name: row.common_name,
    subject: row.subject,
    issuer: row.issuer,
    serialNumber: row.serial_number,
    sha1: row.sha1,
    publicKey: row.public_key,
    keyType: (harmonyPublicKey(row.public_key).asymmetricKeyType ?? '').toUpperCase(),
    validFrom: row.valid_from,
    validTo: row.valid_to,
    createTime: row.create_time,
    uploadBy: row.uploadBy,
  };
}

/**
 * HarmonyOS signing identities (issue 21): a .p12 and its password, checked and sealed as the iOS certificates are
 * (certificates.service.ts), no profiles. The install manifest of a HarmonyOS build is signed with the one whose
 * certificate carries the key the build's modules are signed with (a manifest signed with another key fails on the
 * device, error 10019).
 */
export function createHarmonyCertificatesService(deps: {
  certificates: HarmonyCertificatesRepository;
  box: SecretBox;
  clock: Clock;
}) {
  const { certificates, box, clock } = deps;
  async function list(): Promise<HarmonyCertificateRow[]> {
    return (await certificates.list()).map(present);
  }

  return {
    list,

    async upload(input: CertificateUpload, userId: number): Promise<HarmonyCertificateRow> {
      if (!input.p12) throw AppError.badRequest(CertMessages.p12Missing);
      if (input.password === null) throw AppError.badRequest(CertMessages.passwordMissing);
      if (input.profiles.length > 0) throw AppError.badRequest(HarmonyCertMessages.profilesNotHere);
      const now = clock.now();
      const identity = openIdentity(input.p12.bytes, input.password);
      checkCurrent(identity, now);
      const cert = identity.certificate;
      if (await certificates.findBySha1(cert.sha1)) throw AppError.conflict(HarmonyCertMessages.certificateExists);
      let id: number;
      try {
        id = await certificates.insert({
          common_name: cert.commonName ?? cert.subject,
          subject: cert.subject,
          issuer: cert.issuer,
          serial_number: cert.serialNumber,
          sha1: cert.sha1,
          // As the inspector records a build's signer (hap-signing.ts): the certificate's key, SPKI DER.
          public_key: new X509Certificate(cert.der).publicKey
            .export({ type: 'spki', format: 'der' })
            .toString('base64'),
          valid_from: cert.validFrom.getTime(),
          valid_to: cert.validTo.getTime(),
          certificate_der: cert.der.toString('base64'),
          private_key_sealed: box.seal(identity.privateKeyPem),
          password_sealed: box.seal(input.password),
          create_by: userId,
          create_time: now,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict(HarmonyCertMessages.certificateExists);
        throw error;
      }
      const row = (await list()).find((r) => r.id === id);
      if (!row) throw AppError.notFound(HarmonyCertMessages.certificateNotFound);
      return row;
    },

    async remove(id: number): Promise<void> {
      if (!(await certificates.findById(id))) throw AppError.notFound(HarmonyCertMessages.certificateNotFound);
      await certificates.delete(id);
    },

    /**
     * The private key to sign a build's manifest with: of an identity certifying `publicKey` (the build's
     * `signature.publicKey`) and current now; null when none is uploaded. The only place these keys are unsealed.
     */
    async signingKeyFor(publicKey: string): Promise<KeyObject | null> {
      const now = clock.now();
      const current = (await certificates.withPublicKey(publicKey)).find(
        (row) => row.valid_from <= now && now < row.valid_to,
      );
      return current ? createPrivateKey(box.open(current.private_key_sealed)) : null;
    },
  };
}
export type HarmonyCertificatesService = ReturnType<typeof createHarmonyCertificatesService>;
