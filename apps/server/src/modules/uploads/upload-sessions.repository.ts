import type { Kysely } from 'kysely';
import type { Database, UploadSessionsTable } from '../../db/schema.ts';

type State = UploadSessionsTable['state'];

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
    /** Moves a session from one state to another; false when another request moved it first. */
    async transition(id: string, from: State[], to: State, now: number): Promise<boolean> {
      const result = await db.updateTable('upload_sessions').set({ state: to, update_time: now }).where('id', '=', id).where('state', 'in', from).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async findByStoreUploadId(storeUploadId: string) {
      return db.selectFrom('upload_sessions').selectAll().where('store_upload_id', '=', storeUploadId).executeTakeFirst();
    },
    async findStale(states: State[], before: number, limit: number) {
      return db.selectFrom('upload_sessions').selectAll().where('state', 'in', states).where('update_time', '<', before).orderBy('update_time').limit(limit).execute();
    },
  };
}
export type UploadSessionsRepository = ReturnType<typeof createUploadSessionsRepository>;
