import type { Kysely } from 'kysely';
import type { Database, UploadSessionsTable } from '../../db/schema.ts';

type State = UploadSessionsTable['state'];
const UNFINISHED: State[] = ['issued', 'uploading', 'completed'];

export function createUploadSessionsRepository(db: Kysely<Database>) {
  return {
    async insertMany(rows: UploadSessionsTable[]) {
      if (rows.length) await db.insertInto('upload_sessions').values(rows).execute();
    },
    async findByKey(fileKey: string) {
      return db.selectFrom('upload_sessions').selectAll().where('file_key', '=', fileKey).executeTakeFirst();
    },
    async update(id: string, changes: Partial<Omit<UploadSessionsTable, 'id'>>) {
      await db.updateTable('upload_sessions').set(changes).where('id', '=', id).execute();
    },
    /** Moves a session from one state to another (setting `changes` with it); false when another request moved it first. */
    async transition(
      id: string,
      from: State[],
      to: State,
      now: number,
      changes: Partial<Pick<UploadSessionsTable, 'file_size'>> = {},
    ): Promise<boolean> {
      const result = await db
        .updateTable('upload_sessions')
        .set({ ...changes, state: to, update_time: now })
        .where('id', '=', id)
        .where('state', 'in', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async findByStoreUploadId(storeUploadId: string) {
      return db
        .selectFrom('upload_sessions')
        .selectAll()
        .where('store_upload_id', '=', storeUploadId)
        .executeTakeFirst();
    },
    /** The user's uploads not yet finished and used (issued, uploading, or completed but not registered): how many and their bytes. */
    async unfinishedOf(userId: number, exceptId?: string): Promise<{ files: number; bytes: number }> {
      let query = db
        .selectFrom('upload_sessions')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('files'),
          eb.fn.coalesce(eb.fn.sum<number | string | null>('file_size'), eb.lit(0)).as('bytes'),
        ])
        .where('user_id', '=', userId)
        .where('state', 'in', UNFINISHED);
      if (exceptId) query = query.where('id', '!=', exceptId);
      const row = await query.executeTakeFirstOrThrow();
      return { files: Number(row.files), bytes: Number(row.bytes) };
    },
    async findStale(states: State[], before: number, limit: number) {
      return db
        .selectFrom('upload_sessions')
        .selectAll()
        .where('state', 'in', states)
        .where('update_time', '<', before)
        .orderBy('update_time')
        .limit(limit)
        .execute();
    },
  };
}
export type UploadSessionsRepository = ReturnType<typeof createUploadSessionsRepository>;
