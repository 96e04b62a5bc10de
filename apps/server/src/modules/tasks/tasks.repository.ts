import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, TaskCommentsTable, TaskHistoryTable, TaskRecordsTable } from '../../db/schema.ts';
import type { RecordType } from '@release/contract';
import { DELETED_IN_LARK } from './lark-deleted.ts';
import { taskColumns } from './task-columns.ts';

export type TaskRecordRow = Selectable<TaskRecordsTable>;
export type TaskCommentRow = Selectable<TaskCommentsTable>;
export type NewTaskHistory = Omit<Insertable<TaskHistoryTable>, 'record_id' | 'record_version'>;

export interface TaskFilter {
  appId: number;
  recordType?: RecordType;
  /** Task status or bug status. */
  status?: string;
  assigneeId?: number;
  keyword?: string;
}

/** Records deleted in Lark ('removed') leave the list; their rows stay for the history. */
const listed = sql<boolean>`coalesce(lark_deleted, '') <> 'removed'`;

const escapeLike = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every SQL statement of the tracker: records, comments, history and the per-app settings. */
export function createTasksRepository(db: Kysely<Database>) {
  const filtered = (filter: TaskFilter) => {
    let query = db.selectFrom('task_records as t').where('t.app_id', '=', filter.appId).where(listed);
    if (filter.recordType) query = query.where('t.record_type', '=', filter.recordType);
    if (filter.status) {
      const status = filter.status;
      query = query.where((eb) =>
        eb.or([
          eb.and([eb('t.record_type', '=', 'task'), eb('t.status', '=', status)]),
          eb.and([eb('t.record_type', '=', 'bug'), eb('t.bug_status', '=', status)]),
        ]),
      );
    }
    // assignee_ids is a JSON list of numbers: match the id as a whole element.
    if (filter.assigneeId)
      query = query.where(
        sql<string>`',' || replace(replace(replace(t.assignee_ids, '[', ''), ']', ''), ' ', '') || ','`,
        'like',
        `%,${filter.assigneeId},%`,
      );
    if (filter.keyword)
      query = query.where(
        sql<string>`lower(t.summary)`,
        'like',
        sql<string>`${escapeLike(filter.keyword)} escape '\\'`,
      );
    return query;
  };

  async function writeHistory(trx: Kysely<Database>, recordId: number, recordVersion: number, rows: NewTaskHistory[]) {
    if (rows.length)
      await trx
        .insertInto('task_history')
        .values(rows.map((r) => ({ ...r, record_id: recordId, record_version: recordVersion })))
        .execute();
  }

  return {
    async appExists(appId: number): Promise<boolean> {
      return Boolean(await db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst());
    },
    async settings(appId: number) {
      return db.selectFrom('app_task_settings').selectAll().where('app_id', '=', appId).executeTakeFirst();
    },
    async saveTaskView(appId: number, enabled: boolean, now: number) {
      await db
        .insertInto('app_task_settings')
        .values({ app_id: appId, task_view_enabled: enabled ? 1 : 0, update_time: now })
        .onConflict((oc) => oc.column('app_id').doUpdateSet({ task_view_enabled: enabled ? 1 : 0, update_time: now }))
        .execute();
    },
    async saveFeedbackSettings(appId: number, enabled: boolean, assigneeIds: number[], now: number) {
      const values = {
        feedback_enabled: enabled ? 1 : 0,
        feedback_assignee_ids: taskColumns.feedbackAssigneeIds.encode(assigneeIds),
      };
      await db
        .insertInto('app_task_settings')
        .values({ app_id: appId, task_view_enabled: 0, update_time: now, ...values })
        .onConflict((oc) => oc.column('app_id').doUpdateSet({ ...values, update_time: now }))
        .execute();
    },

    /** Newest first, by page. */
    async list(filter: TaskFilter, offset: number, limit: number) {
      const [rows, count] = await Promise.all([
        filtered(filter)
          .selectAll('t')
          .orderBy('t.create_time', 'desc')
          .orderBy('t.id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        filtered(filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.n ?? 0) };
    },
    /** How many tasks and bugs an app has (the tab badges). */
    async counts(appId: number): Promise<{ taskCount: number; bugCount: number }> {
      const rows = await db
        .selectFrom('task_records')
        .select(['record_type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('app_id', '=', appId)
        .where(listed)
        .groupBy('record_type')
        .execute();
      const of = (type: RecordType) => Number(rows.find((r) => r.record_type === type)?.n ?? 0);
      return { taskCount: of('task'), bugCount: of('bug') };
    },
    async findById(id: number) {
      return db.selectFrom('task_records').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByGuid(guid: string) {
      return db.selectFrom('task_records').selectAll().where('guid', '=', guid).executeTakeFirst();
    },
    async findByClientToken(appId: number, clientToken: string) {
      return db
        .selectFrom('task_records')
        .selectAll()
        .where('app_id', '=', appId)
        .where('client_token', '=', clientToken)
        .executeTakeFirst();
    },
    /** The module names an app's bugs use, for the module picker. */
    async moduleNames(appId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('task_records')
        .select('module_name')
        .distinct()
        .where('app_id', '=', appId)
        .where('module_name', 'is not', null)
        .where('module_name', '!=', '')
        .where(listed)
        .orderBy('module_name')
        .limit(500)
        .execute();
      return rows.map((r) => r.module_name as string);
    },

    /** Inserts a record with its history rows, in one transaction; returns the new id. */
    async insert(record: Insertable<TaskRecordsTable>, history: NewTaskHistory[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('task_records').values(record).returning('id').executeTakeFirstOrThrow();
        await writeHistory(trx, Number(row.id), 1, history);
        return Number(row.id);
      });
    },
    /**
     * Applies changes if the record is still at `expectedVersion`, bumping record_version and writing the
     * history rows in the same transaction. False when someone else changed it first.
     */
    async update(
      id: number,
      expectedVersion: number,
      changes: Updateable<TaskRecordsTable>,
      history: NewTaskHistory[],
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('task_records')
          .set({ ...changes, record_version: expectedVersion + 1 })
          .where('id', '=', id)
          .where('record_version', '=', expectedVersion)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await writeHistory(trx, id, expectedVersion + 1, history);
        return true;
      });
    },

    /** The record_version at which the sync marked the record deleted in Lark (removed, or kept with its unsynced edit). */
    async larkDeletionVersion(recordId: number): Promise<number | null> {
      const row = await db
        .selectFrom('task_history')
        .select('record_version')
        .where('record_id', '=', recordId)
        .where('source', '=', 'lark')
        .where((eb) =>
          eb.or([
            eb('field', '=', 'deletedInLark'),
            eb.and([eb('field', '=', 'conflict'), eb('new_value', '=', DELETED_IN_LARK.keptEdit)]),
          ]),
        )
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? Number(row.record_version) : null;
    },

    async historyOf(recordId: number) {
      return db
        .selectFrom('task_history as h')
        .leftJoin('users as u', 'u.id', 'h.actor_id')
        .selectAll('h')
        .select('u.username as actorName')
        .where('h.record_id', '=', recordId)
        .orderBy('h.id', 'asc')
        .limit(1000)
        .execute();
    },

    /** Live comments, oldest first. */
    async commentsOf(recordId: number) {
      return db
        .selectFrom('task_comments as c')
        .leftJoin('users as u', 'u.id', 'c.creator_id')
        .selectAll('c')
        .select('u.username as creatorName')
        .where('c.record_id', '=', recordId)
        .where('c.deleted_time', 'is', null)
        .orderBy('c.create_time', 'asc')
        .orderBy('c.id', 'asc')
        .limit(1000)
        .execute();
    },
    async findComment(id: number) {
      return db
        .selectFrom('task_comments as c')
        .innerJoin('task_records as t', 't.id', 'c.record_id')
        .selectAll('c')
        .select(['t.app_id as appId', 't.record_version as recordVersion'])
        .where('c.id', '=', id)
        .where('c.deleted_time', 'is', null)
        .executeTakeFirst();
    },
    /** Adds a comment, counts it on the record and writes its history row. */
    async insertComment(
      comment: Insertable<TaskCommentsTable>,
      recordVersion: number,
      history: NewTaskHistory,
    ): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('task_comments').values(comment).returning('id').executeTakeFirstOrThrow();
        const id = Number(row.id);
        await trx
          .updateTable('task_records')
          .set((eb) => ({ comment_count: eb('comment_count', '+', 1) }))
          .where('id', '=', comment.record_id)
          .execute();
        await writeHistory(trx, comment.record_id, recordVersion, [{ ...history, comment_id: id }]);
        return id;
      });
    },
    async updateComment(
      id: number,
      recordId: number,
      content: string,
      now: number,
      recordVersion: number,
      history: NewTaskHistory,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('task_comments')
          .set((eb) => ({ content, update_time: now, comment_version: eb('comment_version', '+', 1) }))
          .where('id', '=', id)
          .execute();
        await writeHistory(trx, recordId, recordVersion, [{ ...history, comment_id: id }]);
      });
    },
    /** Leaves a tombstone (deleted_time) so a sync can remove the comment remotely too. */
    async deleteComment(
      id: number,
      recordId: number,
      now: number,
      recordVersion: number,
      history: NewTaskHistory,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('task_comments')
          .set((eb) => ({ deleted_time: now, update_time: now, comment_version: eb('comment_version', '+', 1) }))
          .where('id', '=', id)
          .where('deleted_time', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return;
        await trx
          .updateTable('task_records')
          .set((eb) => ({ comment_count: eb('comment_count', '-', 1) }))
          .where('id', '=', recordId)
          .execute();
        await writeHistory(trx, recordId, recordVersion, [{ ...history, comment_id: id }]);
      });
    },

    /** Names of these users (assignees, creators). */
    async userNames(ids: number[]): Promise<Map<number, string>> {
      const names = new Map<number, string>();
      if (!ids.length) return names;
      const rows = await db
        .selectFrom('users')
        .select(['id', 'username'])
        .where('id', 'in', [...new Set(ids)])
        .execute();
      for (const row of rows) names.set(Number(row.id), row.username);
      return names;
    },
    async allUsers() {
      return db.selectFrom('users').select(['id', 'username']).orderBy('username').limit(5000).execute();
    },
  };
}
export type TasksRepository = ReturnType<typeof createTasksRepository>;
