import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createUsersRepository } from './users.repository.ts';

/**
 * What other modules may read and change of users (auth, roles, sso, apps, api tokens, zsign): built by users, so no
 * other module builds or holds its repository.
 */
export function createUsersDirectory(db: Kysely<Database>) {
  const users = createUsersRepository(db);
  return {
    findById: users.findById,
    findByUsername: users.findByUsername,
    /** Lark sign-in links an account whose phone matches, when exactly one does. */
    findByPhone: users.findByPhone,
    /** Id, name and role level of every user (an app's member picker). */
    listBrief: users.listBrief,
    /** A new account (sign-in with Lark or WeCom). */
    insert: users.insert,
    update: users.update,
    countAdmins: users.countAdmins,
  };
}
export type UsersDirectory = ReturnType<typeof createUsersDirectory>;
