import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createIdentitiesRepository } from './identities.repository.ts';

/** Who a Lark user is here (lark-docs names a document's editors): built by sso, which owns the linked identities. */
export function createIdentitiesDirectory(db: Kysely<Database>) {
  const identities = createIdentitiesRepository(db);
  return { findBySubject: identities.findBySubject };
}
export type IdentitiesDirectory = ReturnType<typeof createIdentitiesDirectory>;
