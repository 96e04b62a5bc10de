import type { Kysely } from 'kysely';
import { fileUrlsColumn } from '../../db/file-urls-column.ts';
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

    /**
     * The links of app icons and update items (their lists decoded) that may name our media (to be read with
     * mediaKeyOf); and the stored text of items whose list names none of it though the text does (a damaged list,
     * read as no links): housekeeping keeps what such a text mentions rather than delete a screenshot still shown.
     */
    async mediaLinks(): Promise<{ links: string[]; unreadable: string[] }> {
      const icons = await db.selectFrom('apps').select('app_icon as link').where('app_icon', 'like', ours).execute();
      const items = await db
        .selectFrom('commit_logs')
        .select('file_urls as link')
        .where('file_urls', 'like', ours)
        .execute();
      const links = icons.map((r) => r.link ?? '');
      const unreadable: string[] = [];
      for (const item of items) {
        const urls = fileUrlsColumn.decode(item.link);
        if (urls.length === 0) unreadable.push(item.link);
        links.push(...urls);
      }
      return { links, unreadable };
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
