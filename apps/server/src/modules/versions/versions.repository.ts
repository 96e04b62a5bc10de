import { sql, type Kysely } from 'kysely';
import type { AppVersionListQuery, NativePackageType } from '@release/contract';
import type { AppVersionsTable, Database, Insertable } from '../../db/schema.ts';

export function createVersionsRepository(db: Kysely<Database>) {
  function withUploader() {
    return db
      .selectFrom('app_versions as v')
      .leftJoin('users as u', 'u.id', 'v.upload_by')
      .where('v.removed_time', 'is', null)
      .selectAll('v')
      .select('u.username as uploader');
  }
  return {
    async list(query: AppVersionListQuery) {
      let q = db
        .selectFrom('app_versions as v')
        .leftJoin('users as u', 'u.id', 'v.upload_by')
        .where('v.app_id', '=', query.appId)
        .where('v.removed_time', 'is', null);
      if (query.startTime !== undefined) q = q.where('v.create_time', '>=', query.startTime);
      if (query.endTime !== undefined) q = q.where('v.create_time', '<', query.endTime);
      if (query.uploadBy) q = q.where('u.username', '=', query.uploadBy);
      if (query.nativePackageType) q = q.where('v.native_package_type', '=', query.nativePackageType);
      const [rows, count] = await Promise.all([
        q
          .selectAll('v')
          .select('u.username as uploader')
          .orderBy('v.index_no', 'desc')
          .offset((query.pageNo - 1) * query.pageSize)
          .limit(query.pageSize)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.n ?? 0) };
    },
    async findById(id: number) {
      return withUploader().where('v.id', '=', id).executeTakeFirst();
    },
    async findByFileKey(fileKey: string) {
      return withUploader().where('v.file_key', '=', fileKey).executeTakeFirst();
    },
    async latestPerType(appId: number, perType: number) {
      return withUploader()
        .where('v.app_id', '=', appId)
        .orderBy('v.index_no', 'desc')
        .limit(perType * 4)
        .execute();
    },
    /** The newest version of one platform of an app (lookup API). */
    async latestOf(appId: number, type: NativePackageType) {
      return withUploader()
        .where('v.app_id', '=', appId)
        .where('v.native_package_type', '=', type)
        .orderBy('v.index_no', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    /** One platform's versions, newest first, a page at a time (the install page looks for its latest installable one). */
    async newestOfType(appId: number, type: NativePackageType, offset: number, limit: number) {
      return withUploader()
        .where('v.app_id', '=', appId)
        .where('v.native_package_type', '=', type)
        .orderBy('v.index_no', 'desc')
        .offset(offset)
        .limit(limit)
        .execute();
    },
    /** The newest version with this version string (and build, when given): CI's duplicate check. */
    async findPublished(appId: number, type: NativePackageType, appVersion: string, build?: string) {
      let q = db
        .selectFrom('app_versions')
        .select('id')
        .where('app_id', '=', appId)
        .where('native_package_type', '=', type)
        .where('app_version', '=', appVersion)
        .where('removed_time', 'is', null);
      if (build !== undefined) q = q.where('build', '=', build);
      return q.orderBy('index_no', 'desc').limit(1).executeTakeFirst();
    },
    async simple(appId: number) {
      return db
        .selectFrom('app_versions')
        .select(['id', 'index_no', 'app_version', 'build', 'native_package_type', 'file_name'])
        .where('app_id', '=', appId)
        .where('removed_time', 'is', null)
        .orderBy('index_no', 'desc')
        .limit(1000)
        .execute();
    },
    /** Inserts with the next per-app index number, inside the caller's transaction. */
    async insertNext(
      trx: Kysely<Database>,
      row: Omit<Insertable<AppVersionsTable>, 'index_no'>,
    ): Promise<{ id: number; indexNo: number }> {
      const max = await trx
        .selectFrom('app_versions')
        .select(sql<number>`coalesce(max(index_no), 0)`.as('m'))
        .where('app_id', '=', row.app_id)
        .executeTakeFirst();
      const indexNo = Number(max?.m ?? 0) + 1;
      const inserted = await trx
        .insertInto('app_versions')
        .values({ ...row, index_no: indexNo })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: Number(inserted.id), indexNo };
    },
    async update(id: number, changes: Partial<Insertable<AppVersionsTable>>) {
      await db.updateTable('app_versions').set(changes).where('id', '=', id).execute();
    },
    transaction: <T>(fn: (trx: Kysely<Database>) => Promise<T>) => db.transaction().execute(fn),
  };
}
export type VersionsRepository = ReturnType<typeof createVersionsRepository>;
export type VersionRecord = NonNullable<Awaited<ReturnType<VersionsRepository['findById']>>>;
