import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { taskColumns, type StoredTaskFile } from '../tasks/task-columns.ts';
import type { NewTaskHistory, TaskRecordRow } from '../tasks/tasks.repository.ts';

export type LinkKind = 'taskList' | 'table';

/** Sets a record's comment count to its comments not deleted, in the transaction that changed them. */
async function recountComments(trx: Transaction<Database>, recordId: number): Promise<void> {
  const count = await trx
    .selectFrom('task_comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('record_id', '=', recordId)
    .where('deleted_time', 'is', null)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('task_records')
    .set({ comment_count: Number(count.n) })
    .where('id', '=', recordId)
    .execute();
}

/** The statements of the Lark sync beside the tracker's own repository (links, identities, sync marks). */
export function createTasksSyncRepository(db: Kysely<Database>) {
  return {
    async settings(appId: number) {
      return db.selectFrom('app_task_settings').selectAll().where('app_id', '=', appId).executeTakeFirst();
    },

    async appName(appId: number): Promise<string | null> {
      const row = await db.selectFrom('apps').select('app_name').where('id', '=', appId).executeTakeFirst();
      return row?.app_name ?? null;
    },

    /** Stores a new link unless one is there already (two clicks at once: the first wins); answers whether it did. */
    async saveLink(
      appId: number,
      link:
        | { lark_task_list_guid: string; lark_task_list_url: string }
        | { lark_app_token: string; lark_table_id: string; lark_table_url: string },
      now: number,
    ): Promise<boolean> {
      await db
        .insertInto('app_task_settings')
        .values({ app_id: appId, task_view_enabled: 0, update_time: now })
        .onConflict((oc) => oc.column('app_id').doNothing())
        .execute();
      const unset = 'lark_task_list_guid' in link ? 'lark_task_list_guid' : 'lark_app_token';
      const result = await db
        .updateTable('app_task_settings')
        .set({ ...link, update_time: now })
        .where('app_id', '=', appId)
        .where(unset, 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Apps whose bug table lives in this Bitable base. */
    async appsOfBase(appToken: string): Promise<number[]> {
      const rows = await db
        .selectFrom('app_task_settings')
        .select('app_id')
        .where('lark_app_token', '=', appToken)
        .execute();
      return rows.map((r) => Number(r.app_id));
    },

    /** Apps linked to a task list or a table (the schedule's pulls). */
    async linkedApps(): Promise<number[]> {
      const rows = await db
        .selectFrom('app_task_settings')
        .select('app_id')
        .where((eb) => eb.or([eb('lark_task_list_guid', 'is not', null), eb('lark_app_token', 'is not', null)]))
        .execute();
      return rows.map((r) => Number(r.app_id));
    },

    async recordsOf(appId: number, recordType: 'task' | 'bug'): Promise<TaskRecordRow[]> {
      // Records deleted in Lark are out of the sync for good.
      return db
        .selectFrom('task_records')
        .selectAll()
        .where('app_id', '=', appId)
        .where('record_type', '=', recordType)
        .where('lark_deleted', 'is', null)
        .orderBy('id')
        .execute();
    },

    async findByGuid(guid: string): Promise<TaskRecordRow | undefined> {
      return db.selectFrom('task_records').selectAll().where('guid', '=', guid).executeTakeFirst();
    },

    async findById(id: number, executor: Kysely<Database> = db): Promise<TaskRecordRow | undefined> {
      return executor.selectFrom('task_records').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Lark open_ids of local users (their Lark sign-in identities). */
    async openIdsOf(userIds: number[]): Promise<Map<number, string>> {
      if (!userIds.length) return new Map();
      const rows = await db
        .selectFrom('user_identities')
        .select(['user_id', 'subject'])
        .where('provider', '=', 'lark')
        .where('user_id', 'in', userIds)
        .execute();
      return new Map(rows.map((r) => [Number(r.user_id), r.subject]));
    },

    /** Local users of Lark open_ids; an open_id without a local account is left out. */
    async usersOfOpenIds(openIds: string[]): Promise<Map<string, number>> {
      if (!openIds.length) return new Map();
      const rows = await db
        .selectFrom('user_identities')
        .select(['user_id', 'subject'])
        .where('provider', '=', 'lark')
        .where('subject', 'in', openIds)
        .execute();
      return new Map(rows.map((r) => [r.subject, Number(r.user_id)]));
    },

    /** Edit users of the app with a Lark identity (they may edit the task list in Lark). */
    async editorOpenIds(appId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('app_users as m')
        .innerJoin('user_identities as i', 'i.user_id', 'm.user_id')
        .select('i.subject')
        .where('m.app_id', '=', appId)
        .where('m.permit', '=', 'edit')
        .where('i.provider', '=', 'lark')
        .execute();
      return [...new Set(rows.map((r) => r.subject))];
    },

    /**
     * Records what Lark holds after a push or pull: the link, Lark's modified time, and — only if the record is still
     * at `version` — that this version is in step (a newer local edit keeps its own pending push).
     */
    async markSynced(
      id: number,
      version: number,
      link: { lark_guid?: string; lark_record_id?: string },
      larkUpdatedAt: number,
    ): Promise<void> {
      await db
        .updateTable('task_records')
        .set({ ...link, lark_updated_at: larkUpdatedAt })
        .where('id', '=', id)
        .execute();
      await db
        .updateTable('task_records')
        .set({ lark_synced_version: version })
        .where('id', '=', id)
        .where('record_version', '=', version)
        .execute();
    },

    /** History rows at the record's current version (conflict notes, sync failures) without changing the record. */
    async note(record: TaskRecordRow, rows: NewTaskHistory[], executor: Kysely<Database> = db): Promise<void> {
      if (!rows.length) return;
      await executor
        .insertInto('task_history')
        .values(
          rows.map((r) => ({ ...r, record_id: Number(record.id), record_version: Number(record.record_version) })),
        )
        .execute();
    },

    /** Lark tokens that were ever on this record's files (task_history of attachFiles): a token gone from the record was removed here. */
    async attachmentTokensEverSeen(recordId: number): Promise<Set<string>> {
      const rows = await db
        .selectFrom('task_history')
        .select(['old_value', 'new_value'])
        .where('record_id', '=', recordId)
        .where('field', '=', 'attachFiles')
        .execute();
      const tokens = new Set<string>();
      for (const r of rows)
        for (const v of [r.old_value, r.new_value])
          for (const f of taskColumns.attachFiles.decode(v ?? '[]')) if (f.fileToken) tokens.add(f.fileToken);
      return tokens;
    },

    /**
     * Writes Lark tokens onto uploaded files (by blob key) and appends files downloaded from Lark, against the
     * latest attach_files (compare-and-set, retried when a local edit lands meanwhile); history source lark.
     */
    async mergeFiles(
      recordId: number,
      tokens: Map<string, string>,
      added: StoredTaskFile[],
      now: number,
      dropped: ReadonlySet<string> = new Set(),
    ): Promise<void> {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const row = await db
          .selectFrom('task_records')
          .select(['attach_files', 'record_version'])
          .where('id', '=', recordId)
          .executeTakeFirst();
        if (!row) return;
        // Files removed in Lark (by token) go; the others get their new tokens.
        const files = taskColumns.attachFiles
          .decode(row.attach_files)
          .filter((f) => !(f.fileToken && dropped.has(f.fileToken)))
          .map((f) => (f.fileToken ? f : { ...f, fileToken: tokens.get(f.s3Key) ?? null }));
        const known = new Set(files.map((f) => f.fileToken));
        const next = taskColumns.attachFiles.encode([...files, ...added.filter((f) => !known.has(f.fileToken))]);
        const saved = await db.transaction().execute(async (trx) => {
          const result = await trx
            .updateTable('task_records')
            .set({ attach_files: next })
            .where('id', '=', recordId)
            .where('attach_files', '=', row.attach_files)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== 1) return false;
          await trx
            .insertInto('task_history')
            .values({
              record_id: recordId,
              record_version: Number(row.record_version),
              actor_id: null,
              source: 'lark',
              field: 'attachFiles',
              old_value: row.attach_files,
              new_value: next,
              create_time: now,
              comment_id: null,
            })
            .execute();
          return true;
        });
        if (saved) return;
      }
    },

    /**
     * Clears the Lark tokens on the files of an app's linked bugs but one (their attachment column was re-created in
     * Lark, the old cells went with it): each bug's next sync uploads them again instead of reading them as removed
     * in Lark. Compare-and-set on attach_files, read again when a local edit lands meanwhile.
     */
    async forgetBugFileTokens(appId: number, exceptId: number): Promise<void> {
      const rows = await db
        .selectFrom('task_records')
        .select('id')
        .where('app_id', '=', appId)
        .where('record_type', '=', 'bug')
        .where('lark_deleted', 'is', null)
        .where('id', '!=', exceptId)
        .execute();
      for (const { id } of rows) {
        for (let attempt = 0; attempt < 5; attempt += 1) {
          const row = await db
            .selectFrom('task_records')
            .select('attach_files')
            .where('id', '=', Number(id))
            .executeTakeFirst();
          const files = taskColumns.attachFiles.decode(row?.attach_files ?? '[]');
          if (!row || !files.some((f) => f.fileToken)) break;
          const next = taskColumns.attachFiles.encode(files.map((f) => ({ ...f, fileToken: null })));
          const result = await db
            .updateTable('task_records')
            .set({ attach_files: next })
            .where('id', '=', Number(id))
            .where('attach_files', '=', row.attach_files)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 1) break;
        }
      }
    },

    /** Lark's modified time after our own write of an item (nothing there to pull). */
    async markLarkTime(id: number, larkUpdatedAt: number): Promise<void> {
      await db.updateTable('task_records').set({ lark_updated_at: larkUpdatedAt }).where('id', '=', id).execute();
    },

    /** A history note at the record's current version unless the same note is there already. */
    async noteOnce(record: TaskRecordRow, row: NewTaskHistory): Promise<void> {
      const seen = await db
        .selectFrom('task_history')
        .select('id')
        .where('record_id', '=', Number(record.id))
        .where('field', '=', row.field)
        .where('new_value', '=', row.new_value ?? '')
        .executeTakeFirst();
      if (!seen) await this.note(record, [row]);
    },

    async commentsOf(recordId: number) {
      return db.selectFrom('task_comments').selectAll().where('record_id', '=', recordId).orderBy('id').execute();
    },

    async markCommentSynced(id: number, larkCommentId: string | null, version: number): Promise<void> {
      await db
        .updateTable('task_comments')
        .set({ lark_comment_id: larkCommentId, lark_synced_version: version })
        .where('id', '=', id)
        .where('comment_version', '=', version)
        .execute();
    },

    /** A comment written in Lark, stored locally as in step; bumps the record's comment count. */
    async insertRemoteComment(
      recordId: number,
      larkCommentId: string,
      content: string,
      creatorId: number | null,
      time: number,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('task_comments')
          .values({
            record_id: recordId,
            content,
            creator_id: creatorId,
            comment_version: 1,
            lark_comment_id: larkCommentId,
            lark_synced_version: 1,
            create_time: time,
            update_time: time,
            deleted_time: null,
          })
          .execute();
        await recountComments(trx, recordId);
      });
    },

    /** A Lark edit (content) or deletion (content null) of a comment that has no local change pending. */
    async applyRemoteComment(
      id: number,
      recordId: number,
      expectedVersion: number,
      content: string | null,
      time: number,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const change = content === null ? { deleted_time: time } : { content, update_time: time };
        const result = await trx
          .updateTable('task_comments')
          .set({ ...change, comment_version: expectedVersion + 1, lark_synced_version: expectedVersion + 1 })
          .where('id', '=', id)
          .where('comment_version', '=', expectedVersion)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await recountComments(trx, recordId);
        return true;
      });
    },
  };
}
export type TasksSyncRepository = ReturnType<typeof createTasksSyncRepository>;
