import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { MEDIA_ROUTE } from '../../http/links.ts';

/** The media_files list, and the records that point at media (app icons, version icons, update items' screenshots). */
export function createMediaFilesRepository(db: Kysely<Database>) {
  const ours = `%${MEDIA_ROUTE}media/%`;
  return {
    async record(row: { key: string; size: number; userId: number | null; createTime: number }): Promise<void> {
      await db
        .insertInto('media_files')
        .values({ key: row.key, size: row.size, user_id: row.userId, create_time: row.createTime })
        .execute();
    },

    /** Files stored before `before`, oldest first, after `afterKey` of the same time (keyset paging). */
    async storedBefore(before: number, after: { createTime: number; key: string } | null, limit: number) {
      let q = db
        .selectFrom('media_files')
        .select(['key', 'create_time as createTime'])
        .where('create_time', '<', before);
      if (after)
        q = q.where((eb) =>
          eb.or([
            eb('create_time', '>', after.createTime),
            eb.and([eb('create_time', '=', after.createTime), eb('key', '>', after.key)]),
          ]),
        );
      return q.orderBy('create_time').orderBy('key').limit(limit).execute();
    },

    /** Stored links of app icons and update items that may name our media (to be read with mediaKeyOf). */
    async mediaLinks(): Promise<string[]> {
      const icons = await db.selectFrom('apps').select('app_icon as link').where('app_icon', 'like', ours).execute();
      const items = await db
        .selectFrom('commit_logs')
        .select('file_urls as link')
        .where('file_urls', 'like', ours)
        .execute();
      return [...icons, ...items].map((r) => r.link ?? '');
    },

    /** Which of these keys are a version's icon. */
    async versionIcons(keys: string[]): Promise<string[]> {
      if (!keys.length) return [];
      const rows = await db
        .selectFrom('app_versions')
        .select('icon_key')
        .where('icon_key', 'in', keys)
        .where('removed_time', 'is', null)
        .execute();
      return rows.map((r) => r.icon_key ?? '');
    },

    async remove(key: string): Promise<void> {
      await db.deleteFrom('media_files').where('key', '=', key).execute();
    },
  };
}
export type MediaFilesRepository = ReturnType<typeof createMediaFilesRepository>;
