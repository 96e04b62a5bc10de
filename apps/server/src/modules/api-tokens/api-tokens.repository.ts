import type { Kysely } from 'kysely';
import type { ApiTokensTable, Database, Insertable } from '../../db/schema.ts';

export function createApiTokensRepository(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<ApiTokensTable>): Promise<number> {
      const inserted = await db.insertInto('api_tokens').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(inserted.id);
    },

    async findById(id: number) {
      return db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** One user's tokens, newest first. */
    async listByUser(userId: number, page: { offset: number; limit: number }) {
      const q = db.selectFrom('api_tokens').where('user_id', '=', userId);
      const [rows, count] = await Promise.all([
        q
          .selectAll()
          .orderBy('create_time', 'desc')
          .orderBy('id', 'desc')
          .offset(page.offset)
          .limit(page.limit)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.n ?? 0) };
    },

    /** The token and its user as a session would show them, whatever the token's state. */
    async findUserByTokenHash(tokenHash: string) {
      return db
        .selectFrom('api_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select([
          't.id as tokenId',
          't.last_used_time as lastUsedTime',
          't.revoked_time as revokedTime',
          't.expire_time as tokenExpireTime',
          'u.id as userId',
          'u.username as username',
          'r.role_level as roleLevel',
          'r.role_name as roleName',
          'u.phone as phone',
          'u.private_url as privateUrl',
          't.create_time as createTime',
        ])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async revoke(id: number, now: number) {
      await db
        .updateTable('api_tokens')
        .set({ revoked_time: now })
        .where('id', '=', id)
        .where('revoked_time', 'is', null)
        .execute();
    },

    /** Records a use, unless one was recorded after `notAfter` (several processes may race; one write wins). */
    async touch(id: number, now: number, notAfter: number) {
      await db
        .updateTable('api_tokens')
        .set({ last_used_time: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_time', 'is', null), eb('last_used_time', '<=', notAfter)]))
        .execute();
    },
  };
}
export type ApiTokensRepository = ReturnType<typeof createApiTokensRepository>;
