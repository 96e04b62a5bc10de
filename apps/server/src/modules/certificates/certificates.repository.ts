import type { Insertable, Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { jsonColumn } from '../../db/json-column.ts';
import type { CertificateProfilesTable, CertificatesTable, Database } from '../../db/schema.ts';

/** The device UDIDs a profile lists. */
const profileDevices = jsonColumn('certificate_profiles.devices', z.array(z.string()));
/** The certificates above the signing one, each DER in base64. */
const certificateChain = jsonColumn('certificates.chain_der', z.array(z.string()));

export type CertificateRecord = Omit<Selectable<CertificatesTable>, 'chain_der'> & { chain_der: string[] };
export type CertificateListRecord = Omit<
  Selectable<CertificatesTable>,
  'private_key_sealed' | 'password_sealed' | 'certificate_der' | 'chain_der'
> & { uploadBy: string | null };
export type CertificateProfileRecord = Omit<Selectable<CertificateProfilesTable>, 'devices'> & { devices: string[] };
export type CertificateInput = Omit<Insertable<CertificatesTable>, 'chain_der'> & { chain_der: string[] };
export type CertificateProfileInput = Omit<Insertable<CertificateProfilesTable>, 'certificate_id' | 'devices'> & {
  devices: string[];
};

const decodeProfile = <R extends { devices: string }>(row: R): Omit<R, 'devices'> & { devices: string[] } => ({
  ...row,
  devices: profileDevices.decode(row.devices),
});
const encodeProfile = (profile: CertificateProfileInput) => ({
  ...profile,
  devices: profileDevices.encode(profile.devices),
});

export function createCertificatesRepository(db: Kysely<Database>) {
  return {
    /** Every certificate, newest first, with the uploader's name; the secret columns stay behind. */
    async list(): Promise<CertificateListRecord[]> {
      return db
        .selectFrom('certificates as c')
        .leftJoin('users as u', 'u.id', 'c.create_by')
        .select([
          'c.id',
          'c.group_id',
          'c.main_bundle_id',
          'c.common_name',
          'c.subject',
          'c.team_id',
          'c.team_name',
          'c.serial_number',
          'c.sha1',
          'c.valid_from',
          'c.valid_to',
          'c.create_by',
          'c.create_time',
          'u.username as uploadBy',
        ])
        .orderBy('c.create_time', 'desc')
        .orderBy('c.id', 'desc')
        .execute();
    },
    /** Profiles of the given certificates, without their file content. */
    async profilesOf(certificateIds: number[]): Promise<Array<Omit<CertificateProfileRecord, 'content'>>> {
      if (certificateIds.length === 0) return [];
      const rows = await db
        .selectFrom('certificate_profiles')
        .select([
          'id',
          'certificate_id',
          'uuid',
          'name',
          'profile_type',
          'team_id',
          'app_id',
          'bundle_id',
          'devices',
          'provisions_all_devices',
          'lists_certificate',
          'expire_time',
        ])
        .where('certificate_id', 'in', certificateIds)
        .orderBy('id', 'asc')
        .execute();
      return rows.map(decodeProfile);
    },
    async findById(id: number): Promise<CertificateRecord | undefined> {
      const row = await db.selectFrom('certificates').selectAll().where('id', '=', id).executeTakeFirst();
      return row && { ...row, chain_der: certificateChain.decode(row.chain_der) };
    },
    async findBySha1(sha1: string) {
      return db.selectFrom('certificates').select('id').where('sha1', '=', sha1).executeTakeFirst();
    },
    /** Profiles with their file content, for the signer. */
    async profilesWithContent(certificateId: number): Promise<CertificateProfileRecord[]> {
      const rows = await db
        .selectFrom('certificate_profiles')
        .selectAll()
        .where('certificate_id', '=', certificateId)
        .orderBy('id', 'asc')
        .execute();
      return rows.map(decodeProfile);
    },
    async insert(certificate: CertificateInput, profiles: CertificateProfileInput[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('certificates')
          .values({ ...certificate, chain_der: certificateChain.encode(certificate.chain_der) })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(row.id);
        await trx
          .insertInto('certificate_profiles')
          .values(profiles.map((profile) => ({ ...encodeProfile(profile), certificate_id: id })))
          .execute();
        return id;
      });
    },
    /**
     * Puts a profile made at Apple on a certificate: it replaces the certificate's profiles of the same
     * bundle id and type (a regenerated profile supersedes the old one). Returns the new row's id.
     */
    async replaceProfile(certificateId: number, profile: CertificateProfileInput): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('certificate_profiles')
          .where('certificate_id', '=', certificateId)
          .where('bundle_id', '=', profile.bundle_id)
          .where('profile_type', '=', profile.profile_type)
          .execute();
        const row = await trx
          .insertInto('certificate_profiles')
          .values({ ...encodeProfile(profile), certificate_id: certificateId })
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(row.id);
      });
    },
    async delete(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('certificate_profiles').where('certificate_id', '=', id).execute();
        await trx.deleteFrom('certificates').where('id', '=', id).execute();
      });
    },
  };
}
export type CertificatesRepository = ReturnType<typeof createCertificatesRepository>;
