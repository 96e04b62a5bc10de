import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function createPhoneCodeRepository(db: Kysely<Database>) {
  return {
    async insert(row: { userId: number; scene: string; codeHash: string; expireTime: number; createTime: number }) {
      await db
        .insertInto('phone_codes')
        .values({
          user_id: row.userId,
          scene: row.scene,
          code_hash: row.codeHash,
          expire_time: row.expireTime,
          create_time: row.createTime,
          attempts: 0,
          used_time: null,
        })
        .execute();
    },
    async findLatest(userId: number, scene: string) {
      return db
        .selectFrom('phone_codes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('scene', '=', scene)
        .orderBy('create_time', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    /**
     * Counts one try of an unused, unexpired code that has tries left, in one statement (PostgreSQL re-checks the
     * condition on the row a parallel try just updated); false when there is no try to take.
     */
    async takeTry(id: number, maxTries: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('phone_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('attempts', '<', maxTries)
        .where('used_time', 'is', null)
        .where('expire_time', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Marks the code used; false when another request used it first. */
    async markUsed(id: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('phone_codes')
        .set({ used_time: now })
        .where('id', '=', id)
        .where('used_time', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
export type PhoneCodeRepository = ReturnType<typeof createPhoneCodeRepository>;
