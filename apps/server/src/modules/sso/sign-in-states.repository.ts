import type { Kysely } from 'kysely';
import { z } from 'zod';
import { jsonColumn } from '../../db/json-column.ts';
import type { Database, SignInStatesTable } from '../../db/schema.ts';

/** What a sign-in state carries to its callback. */
export const statePayload = z.object({
  /** The redirect URI given to the authorize page; the code exchange must repeat it exactly. */
  redirectUri: z.string(),
  port: z.number().int().optional(),
});
export type StatePayload = z.infer<typeof statePayload>;
const payloadColumn = jsonColumn('sign_in_states.payload', statePayload);

export type SignInStateRecord = Omit<SignInStatesTable, 'payload'> & { payload: StatePayload };

/** Sign-in attempts, keyed by the SHA-256 of the state sent out; each is taken once. */
export function createSignInStatesRepository(db: Kysely<Database>) {
  return {
    async insert(row: SignInStateRecord) {
      await db
        .insertInto('sign_in_states')
        .values({ ...row, payload: payloadColumn.encode(row.payload) })
        .execute();
    },

    async find(stateHash: string): Promise<SignInStateRecord | undefined> {
      const row = await db
        .selectFrom('sign_in_states')
        .selectAll()
        .where('state_hash', '=', stateHash)
        .executeTakeFirst();
      return row && { ...row, payload: payloadColumn.decode(row.payload) };
    },

    /** Moves a row from one status to another; false when another request got there first. */
    async transition(
      stateHash: string,
      from: SignInStatesTable['status'],
      to: SignInStatesTable['status'],
      userId?: number,
    ): Promise<boolean> {
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
