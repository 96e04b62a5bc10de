import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createVersionsRepository } from './versions.repository.ts';

/**
 * What other modules may read and write of versions (publish, install, commit-logs, zsign): built by versions, so no
 * other module holds its repository. Takes a transaction too (commit ingest of a Lark event writes in its own).
 */
export function createVersionsDirectory(db: Kysely<Database>) {
  const versions = createVersionsRepository(db);
  return {
    findById: versions.findById,
    findByFileKey: versions.findByFileKey,
    list: versions.list,
    /** The version before this one on its platform (what changed since, issue 19). */
    previousOf: versions.previousOf,
    newestOfType: versions.newestOfType,
    insertNext: versions.insertNext,
    update: versions.update,
    transaction: versions.transaction,
  };
}
export type VersionsDirectory = ReturnType<typeof createVersionsDirectory>;
