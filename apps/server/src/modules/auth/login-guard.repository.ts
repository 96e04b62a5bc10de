import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Failed-login records, kept in the database so every server process sees them. */
export function createLoginGuardRepository(db: Kysely<Database>) {
  return {
    async record(username: string, ip: string, now: number) {
      await db.insertInto('login_failures').values({ username, ip, create_time: now }).execute();
    },
    async countForPair(username: string, ip: string, since: number): Promise<number> {
      const row = await db
        .selectFrom('login_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('username', '=', username)
        .where('ip', '=', ip)
        .where('create_time', '>', since)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** The times of this pair's failures after `since`, oldest first (how long a lockout still lasts). */
    async failureTimesForPair(username: string, ip: string, since: number): Promise<number[]> {
      const rows = await db
        .selectFrom('login_failures')
        .select('create_time')
        .where('username', '=', username)
        .where('ip', '=', ip)
        .where('create_time', '>', since)
        .orderBy('create_time')
        .execute();
      return rows.map((row) => Number(row.create_time));
    },
    async countForIp(ip: string, since: number): Promise<number> {
      const row = await db
        .selectFrom('login_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ip', '=', ip)
        .where('create_time', '>', since)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async clearPair(username: string, ip: string) {
      await db.deleteFrom('login_failures').where('username', '=', username).where('ip', '=', ip).execute();
    },
    async clearUser(username: string) {
      await db.deleteFrom('login_failures').where('username', '=', username).execute();
    },
    async deleteOlderThan(time: number) {
      await db.deleteFrom('login_failures').where('create_time', '<=', time).execute();
    },
  };
}
export type LoginGuardRepository = ReturnType<typeof createLoginGuardRepository>;
