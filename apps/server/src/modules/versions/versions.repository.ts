import { sql, type Kysely, type Selectable } from 'kysely';
import type { AppVersionListQuery, NativePackageType } from '@release/contract';
import type { AppVersionsTable, Database, Insertable } from '../../db/schema.ts';
import { versionColumns, type StoredAttachment, type StoredInspection } from './version-columns.ts';

/** A version as written: the JSON columns as values, encoded here. */
type VersionValues = Omit<Insertable<AppVersionsTable>, 'attach_files' | 'metadata' | 'warnings'> & {
  attach_files: StoredAttachment[];
  metadata: Record<string, unknown>;
  warnings: string[];
};
type VersionChanges = Partial<Omit<VersionValues, 'metadata' | 'warnings'>>;

function encoded<V extends VersionChanges>(values: V) {
  const { attach_files, ...rest } = values;
  return attach_files === undefined ? rest : { ...rest, attach_files: versionColumns.attachFiles.encode(attach_files) };
}

/** A stored version with its JSON columns decoded (a damaged one reads as empty, see versionColumns). */
function decoded<R extends Pick<Selectable<AppVersionsTable>, 'attach_files' | 'metadata' | 'warnings'>>(
  row: R,
): Omit<R, 'attach_files' | 'metadata' | 'warnings'> & {
  attach_files: StoredAttachment[];
  metadata: StoredInspection;
  warnings: string[];
} {
  return {
    ...row,
    attach_files: versionColumns.attachFiles.decode(row.attach_files),
    metadata: versionColumns.metadata.decode(row.metadata),
    warnings: versionColumns.warnings.decode(row.warnings),
  };
}

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
      return { rows: rows.map(decoded), total: Number(count?.n ?? 0) };
    },
    async findById(id: number) {
      const row = await withUploader().where('v.id', '=', id).executeTakeFirst();
      return row && decoded(row);
    },
    async findByFileKey(fileKey: string) {
      const row = await withUploader().where('v.file_key', '=', fileKey).executeTakeFirst();
      return row && decoded(row);
    },
    async latestPerType(appId: number, perType: number) {
      const rows = await withUploader()
        .where('v.app_id', '=', appId)
        .orderBy('v.index_no', 'desc')
        .limit(perType * 4)
        .execute();
      return rows.map(decoded);
    },
    /** The newest version of one platform of an app (lookup API). */
    async latestOf(appId: number, type: NativePackageType) {
      const row = await withUploader()
        .where('v.app_id', '=', appId)
        .where('v.native_package_type', '=', type)
        .orderBy('v.index_no', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && decoded(row);
    },
    /** One platform's versions, newest first, a page at a time (the install page looks for its latest installable one). */
    async newestOfType(appId: number, type: NativePackageType, offset: number, limit: number) {
      const rows = await withUploader()
        .where('v.app_id', '=', appId)
        .where('v.native_package_type', '=', type)
        .orderBy('v.index_no', 'desc')
        .offset(offset)
        .limit(limit)
        .execute();
      return rows.map(decoded);
    },
    /** The newest build of the same platform published before this one and not removed (what "this build changed" compares with). */
    async previousOf(version: { app_id: number; native_package_type: NativePackageType; index_no: number }) {
      const row = await withUploader()
        .where('v.app_id', '=', version.app_id)
        .where('v.native_package_type', '=', version.native_package_type)
        .where('v.index_no', '<', version.index_no)
        .where('v.removed_time', 'is', null)
        .orderBy('v.index_no', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && decoded(row);
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
      values: Omit<VersionValues, 'index_no'>,
    ): Promise<{ id: number; indexNo: number }> {
      const row = {
        ...values,
        attach_files: versionColumns.attachFiles.encode(values.attach_files),
        metadata: JSON.stringify(values.metadata),
        warnings: versionColumns.warnings.encode(values.warnings),
      };
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
    async update(id: number, changes: VersionChanges) {
      await db.updateTable('app_versions').set(encoded(changes)).where('id', '=', id).execute();
    },
    transaction: <T>(fn: (trx: Kysely<Database>) => Promise<T>) => db.transaction().execute(fn),
  };
}
export type VersionsRepository = ReturnType<typeof createVersionsRepository>;
export type VersionRecord = NonNullable<Awaited<ReturnType<VersionsRepository['findById']>>>;
