import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createUploadSessionsRepository } from './upload-sessions.repository.ts';

/** What publish's direct upload may read and change of upload sessions: built by uploads. */
export function createUploadSessionsDirectory(db: Kysely<Database>) {
  const sessions = createUploadSessionsRepository(db);
  return { findByKey: sessions.findByKey, transition: sessions.transition };
}
export type UploadSessionsDirectory = ReturnType<typeof createUploadSessionsDirectory>;
