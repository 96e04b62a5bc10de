import type { Kysely } from 'kysely';
import type { AppCollectsTable, AppUsersTable, Database } from '../../db/schema.ts';

type Permit = AppUsersTable['permit'];
type CollectType = AppCollectsTable['collect_type'];

/** Who may edit or download an app, and who favourites or subscribes to it. */
export function createAppMembersRepository(db: Kysely<Database>) {
  return {
    async listUsers(appId: number) {
      return db
        .selectFrom('app_users as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .select(['u.id as userId', 'u.username as username', 'p.permit as permit'])
        .where('p.app_id', '=', appId)
        .orderBy('u.username')
        .execute();
    },
    /** Whether the user may edit at least one app (who may upload anything at all). */
    async editsAnyApp(userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('app_users')
        .select('app_id')
        .where('user_id', '=', userId)
        .where('permit', '=', 'edit')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async permitOf(appId: number, userId: number): Promise<Permit | null> {
      const row = await db
        .selectFrom('app_users')
        .select('permit')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.permit ?? null;
    },
    async replaceUsers(trx: Kysely<Database>, appId: number, users: Array<{ userId: number; permit: Permit }>) {
      await trx.deleteFrom('app_users').where('app_id', '=', appId).execute();
      if (users.length)
        await trx
          .insertInto('app_users')
          .values(users.map((u) => ({ app_id: appId, user_id: u.userId, permit: u.permit })))
          .execute();
    },
    async bindUser(userId: number, appIds: number[], permit: Permit | null) {
      if (!appIds.length) return;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('app_users').where('user_id', '=', userId).where('app_id', 'in', appIds).execute();
        if (permit)
          await trx
            .insertInto('app_users')
            .values(appIds.map((appId) => ({ app_id: appId, user_id: userId, permit })))
            .execute();
      });
    },
    async appsOfUser(userId: number) {
      return db
        .selectFrom('app_users as p')
        .innerJoin('apps as a', 'a.id', 'p.app_id')
        .select(['a.id as appId', 'a.app_name as appName', 'a.path as path', 'p.permit as permit'])
        .where('p.user_id', '=', userId)
        .orderBy('a.app_name')
        .execute();
    },
    async collect(appIds: number[], userId: number, type: CollectType, now: number) {
      await db
        .insertInto('app_collects')
        .values(appIds.map((appId) => ({ app_id: appId, user_id: userId, collect_type: type, create_time: now })))
        .onConflict((oc) => oc.columns(['app_id', 'user_id', 'collect_type']).doNothing())
        .execute();
    },
    async uncollect(appIds: number[], userId: number, type: CollectType) {
      await db
        .deleteFrom('app_collects')
        .where('app_id', 'in', appIds)
        .where('user_id', '=', userId)
        .where('collect_type', '=', type)
        .execute();
    },
    async flags(appId: number, userId: number) {
      const rows = await db
        .selectFrom('app_collects')
        .select('collect_type')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .execute();
      return {
        collected: rows.some((r) => r.collect_type === 'collect'),
        subscribed: rows.some((r) => r.collect_type === 'subscribe'),
      };
    },
    async unreadCount(appId: number, userId: number): Promise<number> {
      const row = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('state', '=', 'NOT_READ')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async subscribers(appId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('app_collects')
        .select('user_id')
        .where('app_id', '=', appId)
        .where('collect_type', '=', 'subscribe')
        .execute();
      return rows.map((r) => r.user_id);
    },
  };
}
export type AppMembersRepository = ReturnType<typeof createAppMembersRepository>;
