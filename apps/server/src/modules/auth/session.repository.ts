import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface SessionUserRow {
  userId: number;
  username: string;
  roleLevel: number;
  roleName: string;
  phone: string | null;
  privateUrl: string | null;
  createTime: number;
  expireTime: number;
}

export function createSessionRepository(db: Kysely<Database>) {
  return {
    async insert(row: {
      tokenHash: string;
      userId: number;
      createTime: number;
      expireTime: number;
      ip: string | null;
      userAgent: string | null;
    }) {
      await db
        .insertInto('sessions')
        .values({
          token_hash: row.tokenHash,
          user_id: row.userId,
          create_time: row.createTime,
          expire_time: row.expireTime,
          ip: row.ip,
          user_agent: row.userAgent?.slice(0, 512) ?? null,
        })
        .execute();
    },

    async findUserByTokenHash(tokenHash: string): Promise<SessionUserRow | undefined> {
      return db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select([
          'u.id as userId',
          'u.username as username',
          'r.role_level as roleLevel',
          'r.role_name as roleName',
          'u.phone as phone',
          'u.private_url as privateUrl',
          's.create_time as createTime',
          's.expire_time as expireTime',
        ])
        .where('s.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async deleteByTokenHash(tokenHash: string) {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },

    async deleteByUser(userId: number, exceptTokenHash?: string) {
      let q = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptTokenHash) q = q.where('token_hash', '!=', exceptTokenHash);
      await q.execute();
    },

    async deleteExpired(now: number) {
      await db.deleteFrom('sessions').where('expire_time', '<=', now).execute();
    },
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;
