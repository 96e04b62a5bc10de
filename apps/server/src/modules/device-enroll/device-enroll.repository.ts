import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, DeviceEnrollmentsTable } from '../../db/schema.ts';

export function createDeviceEnrollRepository(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<DeviceEnrollmentsTable>): Promise<number> {
      const inserted = await db.insertInto('device_enrollments').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(inserted.id);
    },
    async findByChallengeHash(hash: string) {
      return db
        .selectFrom('device_enrollments as e')
        .leftJoin('users as u', 'u.id', 'e.user_id')
        .selectAll('e')
        .select('u.username as username')
        .where('e.challenge_hash', '=', hash)
        .executeTakeFirst();
    },
    async findById(id: number) {
      return db
        .selectFrom('device_enrollments as e')
        .leftJoin('apps as a', 'a.id', 'e.app_id')
        .selectAll('e')
        .select(['a.app_name as appName', 'a.path as appPath'])
        .where('e.id', '=', id)
        .executeTakeFirst();
    },
    /** Registrations an install page of this app started since `since` (the per-app bound). */
    async countForAppSince(appId: number, since: number): Promise<number> {
      const row = await db
        .selectFrom('device_enrollments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('app_id', '=', appId)
        .where('create_time', '>=', since)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** Marks the challenge used; false when someone else used it first (a replayed answer). */
    async claim(id: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('device_enrollments')
        .set({ used_time: now })
        .where('id', '=', id)
        .where('used_time', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async update(id: number, changes: Updateable<DeviceEnrollmentsTable>): Promise<void> {
      await db.updateTable('device_enrollments').set(changes).where('id', '=', id).execute();
    },
    /** Expired, never-used registrations older than `before`. */
    async deleteStale(before: number): Promise<void> {
      await db
        .deleteFrom('device_enrollments')
        .where('used_time', 'is', null)
        .where('expire_time', '<', before)
        .execute();
    },
  };
}
export type DeviceEnrollRepository = ReturnType<typeof createDeviceEnrollRepository>;
