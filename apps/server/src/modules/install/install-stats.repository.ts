import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, InstallEventsTable } from '../../db/schema.ts';

/** Downloads and OTA installs, one row per (build, kind, device, UTC day). */
export function createInstallStatsRepository(db: Kysely<Database>) {
  return {
    /** A repeat of the same device on the same day is no new row (the unique index takes it). */
    async record(rows: Array<Insertable<InstallEventsTable>>): Promise<void> {
      if (!rows.length) return;
      await db
        .insertInto('install_events')
        .values(rows)
        .onConflict((oc) => oc.columns(['version_id', 'kind', 'day', 'device_key']).doNothing())
        .execute();
    },
    /** Counts per build and kind, of an app's builds. */
    async countsOfApp(appId: number) {
      return db
        .selectFrom('install_events')
        .select(['version_id', 'kind', (eb) => eb.fn.countAll<number>().as('n')])
        .where('app_id', '=', appId)
        .groupBy(['version_id', 'kind'])
        .execute();
    },
    /** Counts per day and kind of an app's builds, from `fromDay` on. */
    async daily(appId: number, fromDay: string) {
      return db
        .selectFrom('install_events')
        .select(['day', 'kind', (eb) => eb.fn.countAll<number>().as('n')])
        .where('app_id', '=', appId)
        .where('day', '>=', fromDay)
        .groupBy(['day', 'kind'])
        .orderBy('day')
        .execute();
    },
    /** Counts per device family and OS of one build. */
    async devicesOf(versionId: number) {
      return db
        .selectFrom('install_events')
        .select(['device_family', 'os_version', (eb) => eb.fn.countAll<number>().as('n')])
        .where('version_id', '=', versionId)
        .groupBy(['device_family', 'os_version'])
        .orderBy(sql`count(*)`, 'desc')
        .limit(50)
        .execute();
    },
    /** The signed-in users who downloaded or installed one build, per device kind, with when they last did. */
    async holdersOf(versionId: number) {
      return db
        .selectFrom('install_events as e')
        .innerJoin('users as u', 'u.id', 'e.user_id')
        .select([
          'u.id as userId',
          'u.username as username',
          'e.device_family as family',
          'e.os_version as os',
          (eb) => eb.fn.max('e.create_time').as('lastTime'),
        ])
        .where('e.version_id', '=', versionId)
        .groupBy(['u.id', 'u.username', 'e.device_family', 'e.os_version'])
        .orderBy('lastTime', 'desc')
        .limit(500)
        .execute();
    },
  };
}
export type InstallStatsRepository = ReturnType<typeof createInstallStatsRepository>;
