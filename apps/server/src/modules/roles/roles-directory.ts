import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createRolesRepository } from './roles.repository.ts';

/** What other modules may read of roles (users, sso): built by roles, so no other module holds its repository. */
export function createRolesDirectory(db: Kysely<Database>) {
  const roles = createRolesRepository(db);
  return { findById: roles.findById, list: roles.list };
}
export type RolesDirectory = ReturnType<typeof createRolesDirectory>;
