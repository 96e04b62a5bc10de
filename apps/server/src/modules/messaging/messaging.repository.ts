import type { Kysely } from 'kysely';
import { z } from 'zod';
import { jsonColumn } from '../../db/json-column.ts';
import type { Database } from '../../db/schema.ts';

/** Of a version's metadata a push reads only the package marks (issue 19): the thresholds it crossed. */
const versionMarks = jsonColumn(
  'app_versions.metadata',
  z.looseObject({ packageAlerts: z.array(z.string()).max(10).optional().catch(undefined) }),
  { fallback: () => ({}) },
);

/** Upper bound of items read for one message: more are counted, not loaded. */
export const MAX_ITEMS_PER_MESSAGE = 500;

const commitColumns = [
  'c.id',
  'c.commit_id',
  'c.commit_time',
  'c.commit_message',
  'c.remark',
  'c.source_url',
  'c.app_version_id',
  'c.branch',
] as const;

/** The reads a push needs: the app, workflow, items, package and the people to reach. */
export function createMessagingRepository(db: Kysely<Database>) {
  return {
    async app(appId: number) {
      return db
        .selectFrom('apps')
        .select(['id', 'app_name', 'app_icon', 'path', 'dev_wecom_url', 'prod_wecom_url'])
        .where('id', '=', appId)
        .executeTakeFirst();
    },
    async workflow(id: number) {
      return db
        .selectFrom('workflows')
        .select([
          'id',
          'app_id',
          'tab_name',
          'content_type',
          'robot_url',
          'robot_secret',
          'auto_push',
          'auto_push_cursor',
        ])
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async commitsByIds(workflowId: number, ids: number[]) {
      if (!ids.length) return [];
      return db
        .selectFrom('commit_logs as c')
        .select(commitColumns)
        .where('c.workflow_id', '=', workflowId)
        .where('c.id', 'in', ids.slice(0, MAX_ITEMS_PER_MESSAGE))
        .orderBy('c.commit_time', 'desc')
        .orderBy('c.id', 'desc')
        .execute();
    },
    async commitById(id: number) {
      return db
        .selectFrom('commit_logs as c')
        .select([...commitColumns, 'c.workflow_id', 'c.app_id'])
        .where('c.id', '=', id)
        .executeTakeFirst();
    },
    /** Shown items of a workflow in [from, to), newest first, with how many there are in all. */
    async commitsInRange(filter: {
      workflowId: number;
      from: number;
      to: number;
      branch?: string | null;
      afterId?: number;
      upToId?: number;
    }) {
      let q = db
        .selectFrom('commit_logs as c')
        .where('c.workflow_id', '=', filter.workflowId)
        .where('c.is_filtered', '=', 0)
        .where('c.commit_time', '>=', filter.from)
        .where('c.commit_time', '<', filter.to);
      if (filter.branch) q = q.where('c.branch', '=', filter.branch.replace(/^refs\/heads\//, ''));
      if (filter.afterId !== undefined) q = q.where('c.id', '>', filter.afterId);
      if (filter.upToId !== undefined) q = q.where('c.id', '<=', filter.upToId);
      const [rows, count] = await Promise.all([
        q
          .select(commitColumns)
          .orderBy('c.commit_time', 'desc')
          .orderBy('c.id', 'desc')
          .limit(MAX_ITEMS_PER_MESSAGE)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    /** autoPush: shown items stored after `afterId` and made since `since`, newest first, their count, and the highest id of any item. */
    async itemsAfter(workflowId: number, afterId: number, since: number) {
      const base = db
        .selectFrom('commit_logs as c')
        .where('c.workflow_id', '=', workflowId)
        .where('c.id', '>', afterId);
      const shown = base.where('c.is_filtered', '=', 0).where('c.commit_time', '>=', since);
      const [rows, count, max] = await Promise.all([
        shown
          .select(commitColumns)
          .orderBy('c.commit_time', 'desc')
          .orderBy('c.id', 'desc')
          .limit(MAX_ITEMS_PER_MESSAGE)
          .execute(),
        shown.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        base.select((eb) => eb.fn.max('c.id').as('m')).executeTakeFirst(),
      ]);
      return { rows, total: Number(count.n), maxId: max?.m == null ? null : Number(max.m) };
    },
    /** Moves the cursor only from the value the caller read; answers whether it did (false: another run won). */
    async moveAutoPushCursor(
      executor: Kysely<Database>,
      workflowId: number,
      from: number | null,
      to: number,
    ): Promise<boolean> {
      let q = executor.updateTable('workflows').set({ auto_push_cursor: to }).where('id', '=', workflowId);
      q = from === null ? q.where('auto_push_cursor', 'is', null) : q.where('auto_push_cursor', '=', from);
      const result = await q.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** The highest item id of a workflow (0 when it has none): where autoPush starts when it is switched on. */
    async lastItemId(workflowId: number): Promise<number> {
      const row = await db
        .selectFrom('commit_logs')
        .select((eb) => eb.fn.max('id').as('m'))
        .where('workflow_id', '=', workflowId)
        .executeTakeFirst();
      return row?.m == null ? 0 : Number(row.m);
    },
    async version(appId: number, by: { id?: number | null; indexNo?: number | null }) {
      let q = db
        .selectFrom('app_versions as v')
        .leftJoin('users as u', 'u.id', 'v.upload_by')
        .where('v.app_id', '=', appId)
        .where('v.removed_time', 'is', null);
      if (by.id) q = q.where('v.id', '=', by.id);
      else if (by.indexNo) q = q.where('v.index_no', '=', by.indexNo);
      else return undefined;
      const row = await q
        .select([
          'v.id',
          'v.index_no',
          'v.native_package_type',
          'v.app_version',
          'v.build',
          'v.description',
          'v.metadata',
          'u.username as uploader',
        ])
        .executeTakeFirst();
      if (!row) return undefined;
      const { metadata, ...version } = row;
      return { ...version, package_alerts: versionMarks.decode(metadata).packageAlerts ?? [] };
    },
    /** Users with their Lark open_id (the sign-in link), null when they have none. */
    async larkRecipients(userIds: number[]) {
      if (!userIds.length) return [];
      return db
        .selectFrom('users as u')
        .leftJoin('user_identities as i', (join) => join.onRef('i.user_id', '=', 'u.id').on('i.provider', '=', 'lark'))
        .select(['u.id', 'u.username', 'i.subject as open_id'])
        .where('u.id', 'in', userIds)
        .orderBy('u.id')
        .execute();
    },
    async viewerIds(appId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('app_users')
        .select('user_id')
        .where('app_id', '=', appId)
        .where('permit', '=', 'view')
        .execute();
      return rows.map((r) => Number(r.user_id));
    },
    async subscriberIds(appId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('app_collects')
        .select('user_id')
        .where('app_id', '=', appId)
        .where('collect_type', '=', 'subscribe')
        .execute();
      return rows.map((r) => Number(r.user_id));
    },
  };
}
export type MessagingRepository = ReturnType<typeof createMessagingRepository>;
export type CommitRow = Awaited<ReturnType<MessagingRepository['commitsByIds']>>[number];
export type VersionRow = NonNullable<Awaited<ReturnType<MessagingRepository['version']>>>;
