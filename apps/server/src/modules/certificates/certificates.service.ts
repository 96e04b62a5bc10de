import { createPrivateKey } from 'node:crypto';
import { CertMessages, type CertificateProfile, type CertificateRow, type CertProfileType } from '@release/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import { inspectMobileprovision } from '@release/inspect/mobileprovision.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { completeChain } from '../../signing/certificate-chain.ts';
import type { SigningIdentity } from '../../signing/signing-identity.ts';
import { checkCertificateUpload, type UploadedFile } from './certificate-check.ts';
import type { CertificatesRepository } from './certificates.repository.ts';

export interface CertificateUpload {
  p12: UploadedFile | null;
  password: string | null;
  profiles: UploadedFile[];
}

type ProfileRow = Awaited<ReturnType<CertificatesRepository['profilesOf']>>[number];

function presentProfile(row: ProfileRow): CertificateProfile {
  return {
    id: row.id,
    name: row.name,
    uuid: row.uuid,
    type: row.profile_type as CertProfileType,
    teamId: row.team_id,
    appId: row.app_id,
    bundleId: row.bundle_id,
    devices: row.devices,
    provisionsAllDevices: row.provisions_all_devices === 1,
    expireTime: row.expire_time,
    listsCertificate: row.lists_certificate === 1,
  };
}

/** Signing certificates (.p12 + provisioning profiles): checked on upload, secrets sealed, listed without them. */
export function createCertificatesService(deps: {
  certificates: CertificatesRepository;
  box: SecretBox;
  clock: Clock;
}) {
  const { certificates, box, clock } = deps;

  async function list(): Promise<CertificateRow[]> {
    const rows = await certificates.list();
    const profiles = await certificates.profilesOf(rows.map((r) => r.id));
    return rows.map((row) => {
      const own = profiles.filter((p) => p.certificate_id === row.id).map(presentProfile);
      return {
        id: row.id,
        groupId: row.group_id,
        mainBundleId: row.main_bundle_id,
        name: row.common_name,
        subject: row.subject,
        teamId: row.team_id,
        teamName: row.team_name,
        serialNumber: row.serial_number,
        sha1: row.sha1,
        validFrom: row.valid_from,
        validTo: row.valid_to,
        expireTime: Math.min(row.valid_to, ...own.map((p) => p.expireTime)),
        createTime: row.create_time,
        uploadBy: row.uploadBy,
        profiles: own,
      };
    });
  }

  return {
    list,

    async upload(input: CertificateUpload, userId: number): Promise<CertificateRow> {
      if (!input.p12) throw AppError.badRequest(CertMessages.p12Missing);
      if (input.password === null) throw AppError.badRequest(CertMessages.passwordMissing);
      if (input.profiles.length === 0) throw AppError.badRequest(CertMessages.profilesMissing);
      const now = clock.now();
      const checked = checkCertificateUpload({
        p12: input.p12.bytes,
        password: input.password,
        profiles: input.profiles,
        now,
      });
      const { identity } = checked;
      const cert = identity.certificate;
      if (await certificates.findBySha1(cert.sha1)) throw AppError.conflict(CertMessages.certificateExists);
      let id: number;
      try {
        id = await certificates.insert(
          {
            group_id: checked.groupId,
            main_bundle_id: checked.mainBundleId,
            common_name: cert.commonName ?? cert.subject,
            subject: cert.subject,
            team_id: identity.teamId,
            team_name: identity.teamName,
            serial_number: cert.serialNumber,
            sha1: cert.sha1,
            valid_from: cert.validFrom.getTime(),
            valid_to: cert.validTo.getTime(),
            certificate_der: cert.der.toString('base64'),
            chain_der: checked.chain.map((der) => der.toString('base64')),
            private_key_sealed: box.seal(identity.privateKeyPem),
            password_sealed: box.seal(input.password),
            create_by: userId,
            create_time: now,
          },
          checked.profiles.map((p) => ({
            uuid: p.uuid,
            name: p.name,
            profile_type: p.type,
            team_id: p.profile.teamId,
            app_id: p.appId,
            bundle_id: p.bundleId,
            devices: p.profile.provisionedDevices,
            provisions_all_devices: p.profile.provisionsAllDevices ? 1 : 0,
            lists_certificate: p.listsCertificate ? 1 : 0,
            expire_time: p.expireTime,
            content: p.content.toString('base64'),
          })),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict(CertMessages.certificateExists);
        throw error;
      }
      const row = (await list()).find((r) => r.id === id);
      if (!row) throw AppError.notFound(CertMessages.certificateNotFound);
      return row;
    },

    async remove(id: number): Promise<void> {
      if (!(await certificates.findById(id))) throw AppError.notFound(CertMessages.certificateNotFound);
      await certificates.delete(id);
    },

    /** Opens a stored identity for the signer: the only place the private key is unsealed. */
    async loadSigningIdentity(id: number): Promise<SigningIdentity> {
      const row = await certificates.findById(id);
      if (!row) throw AppError.notFound(CertMessages.certificateNotFound);
      const profiles = await certificates.profilesWithContent(id);
      const certificateDer = Buffer.from(row.certificate_der, 'base64');
      return {
        certificateId: row.id,
        commonName: row.common_name,
        teamId: row.team_id,
        certificateDer,
        // Certificates stored before chains were completed get Apple's CAs now (ChainError when none fits).
        chain: completeChain(
          certificateDer,
          row.chain_der.map((der) => Buffer.from(der, 'base64')),
        ),
        privateKey: createPrivateKey(box.open(row.private_key_sealed)),
        profiles: profiles.map((p) => {
          const content = Buffer.from(p.content, 'base64');
          return {
            uuid: p.uuid,
            name: p.name,
            type: p.profile_type as CertProfileType,
            appId: p.app_id,
            bundleId: p.bundle_id,
            content,
            profile: inspectMobileprovision(content),
          };
        }),
      };
    },
  };
}
export type CertificatesService = ReturnType<typeof createCertificatesService>;
