import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createCertificatesRepository } from './certificates.repository.ts';

/**
 * What Apple provisioning may read and write of certificates (a certificate, its profile): built by certificates, so
 * no other module holds its repository.
 */
export function createCertificatesDirectory(db: Kysely<Database>) {
  const certificates = createCertificatesRepository(db);
  return { findById: certificates.findById, replaceProfile: certificates.replaceProfile };
}
export type CertificatesDirectory = ReturnType<typeof createCertificatesDirectory>;
