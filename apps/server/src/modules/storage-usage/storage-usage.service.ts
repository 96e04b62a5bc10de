import { sql, type Kysely } from 'kysely';
import { STORAGE_LARGEST_BUILDS, STORAGE_WEEKS, type NativePackageType, type StorageUsage } from '@release/contract';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

/** Monday 00:00 UTC of the week `time` falls in. */
export function weekStart(time: number): number {
  const day = Math.floor(time / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  return (day - ((day + 3) % 7)) * DAY_MS;
}

type Platforms = StorageUsage['platforms'];

function addTo(platforms: Platforms, type: NativePackageType, bytes: number, builds: number) {
  const found = platforms.find((p) => p.nativePackageType === type);
  if (found) {
    found.bytes += bytes;
    found.builds += builds;
  } else platforms.push({ nativePackageType: type, bytes, builds });
}

/**
 * The storage page's figures (issue 20): the packages of the builds still there, per app and per platform, the
 * largest builds, and per week the bytes builds added and the bytes removals gave back. Counted by the database
 * (sums per app and platform), so the cost does not grow with the store.
 */
export function createStorageUsageService(deps: { db: Kysely<Database>; clock: Clock; store: 'local' | 's3' }) {
  const { db } = deps;
  return {
    async usage(): Promise<StorageUsage> {
      const sums = await db
        .selectFrom('app_versions as v')
        .innerJoin('apps as a', 'a.id', 'v.app_id')
        .select(['v.app_id', 'a.app_name', 'v.native_package_type'])
        .select((eb) => [eb.fn.sum<number>('v.app_size').as('bytes'), eb.fn.countAll<number>().as('builds')])
        .where('v.removed_time', 'is', null)
        .groupBy(['v.app_id', 'a.app_name', 'v.native_package_type'])
        .execute();
      const apps = new Map<number, StorageUsage['apps'][number]>();
      const platforms: Platforms = [];
      for (const row of sums) {
        const appId = Number(row.app_id);
        const bytes = Number(row.bytes ?? 0);
        const builds = Number(row.builds);
        const app = apps.get(appId) ?? { appId, appName: row.app_name, bytes: 0, builds: 0, platforms: [] };
        app.bytes += bytes;
        app.builds += builds;
        addTo(app.platforms, row.native_package_type, bytes, builds);
        addTo(platforms, row.native_package_type, bytes, builds);
        apps.set(appId, app);
      }
      const bySize = <T extends { bytes: number }>(list: T[]) => list.sort((a, b) => b.bytes - a.bytes);
      for (const app of apps.values()) bySize(app.platforms);

      const largest = await db
        .selectFrom('app_versions as v')
        .innerJoin('apps as a', 'a.id', 'v.app_id')
        .select([
          'v.id',
          'v.app_id',
          'a.app_name',
          'v.index_no',
          'v.app_version',
          'v.build',
          'v.file_name',
          'v.native_package_type',
          'v.app_size',
          'v.create_time',
          'v.pinned',
        ])
        .where('v.removed_time', 'is', null)
        .orderBy('v.app_size', 'desc')
        .orderBy('v.id', 'desc')
        .limit(STORAGE_LARGEST_BUILDS)
        .execute();

      const first = weekStart(deps.clock.now()) - (STORAGE_WEEKS - 1) * WEEK_MS;
      const weeks = Array.from({ length: STORAGE_WEEKS }, (_, i) => ({
        weekStart: first + i * WEEK_MS,
        addedBytes: 0,
        removedBytes: 0,
        builds: 0,
      }));
      // Per week in the database: (time - first) / week is the week's place (integer division on both databases;
      // literals, so the grouped expression is the selected one).
      const place = (column: 'create_time' | 'removed_time') =>
        sql<number>`(${sql.ref(column)} - ${sql.lit(first)}) / ${sql.lit(WEEK_MS)}`;
      const added = await db
        .selectFrom('app_versions')
        .select((eb) => [
          place('create_time').as('week'),
          eb.fn.sum<number>('app_size').as('bytes'),
          eb.fn.countAll<number>().as('builds'),
        ])
        .where('create_time', '>=', first)
        .groupBy(place('create_time'))
        .execute();
      for (const row of added) {
        const week = weeks[Number(row.week)];
        if (!week) continue;
        week.addedBytes += Number(row.bytes ?? 0);
        week.builds += Number(row.builds);
      }
      const removed = await db
        .selectFrom('app_versions')
        .select((eb) => [place('removed_time').as('week'), eb.fn.sum<number>('app_size').as('bytes')])
        .where('removed_time', '>=', first)
        .groupBy(place('removed_time'))
        .execute();
      for (const row of removed) {
        const week = weeks[Number(row.week)];
        if (week) week.removedBytes += Number(row.bytes ?? 0);
      }

      const appList = bySize([...apps.values()]);
      return {
        store: deps.store,
        totalBytes: appList.reduce((sum, a) => sum + a.bytes, 0),
        builds: appList.reduce((sum, a) => sum + a.builds, 0),
        platforms: bySize(platforms),
        apps: appList,
        largest: largest.map((v) => ({
          id: Number(v.id),
          appId: Number(v.app_id),
          appName: v.app_name,
          indexNo: v.index_no,
          appVersion: v.app_version,
          build: v.build,
          fileName: v.file_name,
          nativePackageType: v.native_package_type,
          appSize: Number(v.app_size),
          createTime: Number(v.create_time),
          pinned: v.pinned === 1,
        })),
        weeks,
      };
    },
  };
}
export type StorageUsageService = ReturnType<typeof createStorageUsageService>;
