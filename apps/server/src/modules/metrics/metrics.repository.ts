import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The statements of /metrics that are the metrics module's own. */
export function createMetricsRepository(db: Kysely<Database>) {
  return {
    /** Bytes of the packages each app keeps (removed versions left out): one grouped sum over the versions. */
    async storageByApp(): Promise<{ appId: number; appName: string; bytes: number }[]> {
      const rows = await db
        .selectFrom('app_versions as v')
        .innerJoin('apps as a', 'a.id', 'v.app_id')
        .select(['a.id', 'a.app_name'])
        .select((eb) => eb.fn.sum<number | string>('v.app_size').as('bytes'))
        .where('v.removed_time', 'is', null)
        .groupBy(['a.id', 'a.app_name'])
        .orderBy('a.id')
        .execute();
      return rows.map((r) => ({ appId: Number(r.id), appName: r.app_name, bytes: Number(r.bytes ?? 0) }));
    },
  };
}
export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
