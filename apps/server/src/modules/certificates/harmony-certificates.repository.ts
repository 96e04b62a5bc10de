import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, HarmonyCertificatesTable } from '../../db/schema.ts';

export type HarmonyCertificateRecord = Selectable<HarmonyCertificatesTable>;
export type HarmonyCertificateListRecord = Omit<
  HarmonyCertificateRecord,
  'private_key_sealed' | 'password_sealed' | 'certificate_der'
> & { uploadBy: string | null };

/** HarmonyOS signing identities (migration 064): listed without their secrets, found by the key they certify. */
export function createHarmonyCertificatesRepository(db: Kysely<Database>) {
  return {
    async list(): Promise<HarmonyCertificateListRecord[]> {
      return db
        .selectFrom('harmony_certificates as c')
        .leftJoin('users as u', 'u.id', 'c.create_by')
        .select([
          'c.id',
          'c.common_name',
          'c.subject',
          'c.issuer',
          'c.serial_number',
          'c.sha1',
          'c.public_key',
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
    async findById(id: number): Promise<HarmonyCertificateRecord | undefined> {
      return db.selectFrom('harmony_certificates').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findBySha1(sha1: string) {
      return db.selectFrom('harmony_certificates').select('id').where('sha1', '=', sha1).executeTakeFirst();
    },
    /** The identities certifying this key (base64 SPKI DER), the one valid longest first. */
    async withPublicKey(publicKey: string): Promise<HarmonyCertificateRecord[]> {
      return db
        .selectFrom('harmony_certificates')
        .selectAll()
        .where('public_key', '=', publicKey)
        .orderBy('valid_to', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    async insert(row: Insertable<HarmonyCertificatesTable>): Promise<number> {
      const inserted = await db
        .insertInto('harmony_certificates')
        .values(row)
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(inserted.id);
    },
    async delete(id: number): Promise<void> {
      await db.deleteFrom('harmony_certificates').where('id', '=', id).execute();
    },
  };
}
export type HarmonyCertificatesRepository = ReturnType<typeof createHarmonyCertificatesRepository>;
