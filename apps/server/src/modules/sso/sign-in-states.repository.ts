import type { Kysely } from 'kysely';
import type { Database, SignInStatesTable } from '../../db/schema.ts';

/** Sign-in attempts, keyed by the SHA-256 of the state sent out; each is taken once. */
export function createSignInStatesRepository(db: Kysely<Database>) {
  return {
    async insert(row: SignInStatesTable) {
      await db.insertInto('sign_in_states').values(row).execute();
    },

    async find(stateHash: string) {
      return db.selectFrom('sign_in_states').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
    },

    /** Moves a row from one status to another; false when another request got there first. */
    async transition(stateHash: string, from: SignInStatesTable['status'], to: SignInStatesTable['status'], userId?: number): Promise<boolean> {
      const result = await db
        .updateTable('sign_in_states')
        .set({ status: to, ...(userId === undefined ? {} : { user_id: userId }) })
        .where('state_hash', '=', stateHash)
        .where('status', '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteExpired(now: number) {
      await db.deleteFrom('sign_in_states').where('expire_time', '<', now).execute();
    },
  };
}
export type SignInStatesRepository = ReturnType<typeof createSignInStatesRepository>;
