import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { AppBundleIds, AppListQuery } from '@release/contract';
import type { AppsTable, Database, Insertable } from '../../db/schema.ts';
import { appColumns } from './app-columns.ts';

type AppsQuery = SelectQueryBuilder<Database & { a: AppsTable }, 'a', object>;

export interface AppListViewer {
  userId: number;
  isAdmin: boolean;
}

// Names sort the way people read them ("alpha" before "Beta"), not upper case first.
const sortColumns = {
  update_time: sql.ref('a.update_time'),
  app_name: sql`lower(a.app_name)`,
  create_time: sql.ref('a.create_time'),
} as const;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function createAppsRepository(db: Kysely<Database>) {
  /** Apps the viewer may see, narrowed by every filter except the app type. */
  function visibleApps(viewer: AppListViewer, query: AppListQuery): AppsQuery {
    let q: AppsQuery = db.selectFrom('apps as a');
    if (!viewer.isAdmin) {
      q = q.where('a.id', 'in', db.selectFrom('app_users').select('app_id').where('user_id', '=', viewer.userId));
    }
    if (query.categoryId === 0) q = q.where('a.category_id', 'is', null);
    else if (query.categoryId > 0) q = q.where('a.category_id', '=', query.categoryId);
    if (query.userId > 0) {
      q = q.where(
        'a.id',
        'in',
        db.selectFrom('app_users').select('app_id').where('user_id', '=', query.userId).where('permit', '=', 'edit'),
      );
    }
    if (query.viewCollect) {
      q = q.where(
        'a.id',
        'in',
        db
          .selectFrom('app_collects')
          .select('app_id')
          .where('user_id', '=', viewer.userId)
          .where('collect_type', '=', 'collect'),
      );
    }
    if (query.appName) {
      q = q.where(
        sql<string>`lower(a.app_name)`,
        'like',
        sql<string>`${`%${escapeLike(query.appName.toLowerCase())}%`} escape '\\'`,
      );
    }
    return q;
  }

  return {
    async list(viewer: AppListViewer, query: AppListQuery) {
      let q = visibleApps(viewer, query);
      if (query.appType !== '全部') q = q.where('a.app_type', '=', query.appType);
      return q
        .leftJoin('categories as c', 'c.id', 'a.category_id')
        .select((eb) => [
          'a.id as appId',
          'a.app_name as appName',
          'a.app_type as appType',
          'a.app_icon as appIcon',
          'a.category_id as categoryId',
          'c.category_name as categoryName',
          'a.path as path',
          'a.description as description',
          'a.create_time as createTime',
          'a.update_time as updateTime',
          eb
            .exists(
              eb
                .selectFrom('app_collects as k')
                .select('k.app_id')
                .whereRef('k.app_id', '=', 'a.id')
                .where('k.user_id', '=', viewer.userId)
                .where('k.collect_type', '=', 'collect'),
            )
            .as('collected'),
          eb
            .exists(
              eb
                .selectFrom('app_collects as k')
                .select('k.app_id')
                .whereRef('k.app_id', '=', 'a.id')
                .where('k.user_id', '=', viewer.userId)
                .where('k.collect_type', '=', 'subscribe'),
            )
            .as('subscribed'),
          eb
            .selectFrom('notifications as n')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('n.app_id', '=', 'a.id')
            .where('n.user_id', '=', viewer.userId)
            .where('n.state', '=', 'NOT_READ')
            .as('unreadMessage'),
        ])
        .orderBy(sortColumns[query.orderByColumn], query.sort === 'ASC' ? 'asc' : 'desc')
        .orderBy('a.id', query.sort === 'ASC' ? 'asc' : 'desc')
        .offset((query.pageNo - 1) * query.pageSize)
        .limit(query.pageSize)
        .execute();
    },

    async countByType(viewer: AppListViewer, query: AppListQuery) {
      return visibleApps(viewer, query)
        .select((eb) => ['a.app_type as appType', eb.fn.countAll<number>().as('n')])
        .groupBy('a.app_type')
        .execute();
    },

    /** Users with the edit permit on visible apps, and on how many. */
    async editors(viewer: AppListViewer) {
      let q = db
        .selectFrom('app_users as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .where('p.permit', '=', 'edit');
      if (!viewer.isAdmin)
        q = q.where('p.app_id', 'in', db.selectFrom('app_users').select('app_id').where('user_id', '=', viewer.userId));
      return q
        .select((eb) => ['u.id as userId', 'u.username as userName', eb.fn.countAll<number>().as('count')])
        .groupBy(['u.id', 'u.username'])
        .orderBy('u.username')
        .execute();
    },

    async findById(appId: number) {
      return db
        .selectFrom('apps as a')
        .leftJoin('categories as c', 'c.id', 'a.category_id')
        .selectAll('a')
        .select('c.category_name as category_name')
        .where('a.id', '=', appId)
        .executeTakeFirst();
    },

    async findByPath(path: string) {
      return db.selectFrom('apps').selectAll().where('path', '=', path).executeTakeFirst();
    },

    async isPathTaken(path: string, exceptAppId?: number): Promise<boolean> {
      let q = db
        .selectFrom('apps')
        .select('id')
        .where((eb) => eb.or([eb('path', '=', path), eb('public_path', '=', path)]));
      if (exceptAppId) q = q.where('id', '!=', exceptAppId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    async insert(trx: Kysely<Database>, app: Insertable<AppsTable>): Promise<number> {
      const row = await trx.insertInto('apps').values(app).returning('id').executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async update(trx: Kysely<Database>, appId: number, changes: Partial<Insertable<AppsTable>>) {
      await trx.updateTable('apps').set(changes).where('id', '=', appId).execute();
    },

    /**
     * The app's ids (app-columns.ts), with the text they were read from: what replaceBundleIdsIf compares (null: no
     * such app).
     */
    async bundleIds(appId: number): Promise<{ ids: AppBundleIds; stored: string } | null> {
      const row = await db.selectFrom('apps').select('bundle_ids').where('id', '=', appId).executeTakeFirst();
      return row ? { ids: appColumns.bundleIds.decode(row.bundle_ids), stored: row.bundle_ids } : null;
    },

    /**
     * Writes the ids only if the stored text is still `before`, as bundleIds read it (compare and set): false when
     * another upload changed them first.
     */
    async replaceBundleIdsIf(appId: number, before: string, after: AppBundleIds): Promise<boolean> {
      const result = await db
        .updateTable('apps')
        .set({ bundle_ids: appColumns.bundleIds.encode(after) })
        .where('id', '=', appId)
        .where('bundle_ids', '=', before)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async existingIds(appIds: number[]): Promise<number[]> {
      if (!appIds.length) return [];
      const rows = await db.selectFrom('apps').select('id').where('id', 'in', appIds).execute();
      return rows.map((r) => Number(r.id));
    },

    async versionCounts(appId: number) {
      return db
        .selectFrom('app_versions')
        .select((eb) => ['native_package_type as type', eb.fn.countAll<number>().as('n')])
        .where('app_id', '=', appId)
        .where('removed_time', 'is', null)
        .groupBy('native_package_type')
        .execute();
    },

    transaction: <T>(fn: (trx: Kysely<Database>) => Promise<T>) => db.transaction().execute(fn),
  };
}
export type AppsRepository = ReturnType<typeof createAppsRepository>;
