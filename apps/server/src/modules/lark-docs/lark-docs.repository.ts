import type { Kysely } from 'kysely';
import type { Database, Insertable, LarkDocFollowsTable } from '../../db/schema.ts';

/** Followed Lark documents and the events already taken (every SQL statement of the feature). */
export function createLarkDocsRepository(db: Kysely<Database>) {
  return {
    async followsOfWorkflow(workflowId: number) {
      return db
        .selectFrom('lark_doc_follows')
        .selectAll()
        .where('workflow_id', '=', workflowId)
        .orderBy('id')
        .execute();
    },
    /** Who follows a drive token (a document, or the folder a new file appeared in). */
    async followsOfToken(objToken: string) {
      return db.selectFrom('lark_doc_follows').selectAll().where('obj_token', '=', objToken).orderBy('id').execute();
    },
    async countFollowers(objToken: string): Promise<number> {
      const row = await db
        .selectFrom('lark_doc_follows')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('obj_token', '=', objToken)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async insertFollow(row: Insertable<LarkDocFollowsTable>) {
      await db
        .insertInto('lark_doc_follows')
        .values(row)
        .onConflict((oc) => oc.columns(['workflow_id', 'obj_token']).doNothing())
        .execute();
    },
    async deleteFollow(id: number) {
      await db.deleteFrom('lark_doc_follows').where('id', '=', id).execute();
    },
    /** The text and title seen with the latest change, the "before" of the next one. */
    async updateSeen(id: number, changes: { content?: string | null; title?: string }, now: number) {
      await db
        .updateTable('lark_doc_follows')
        .set({ ...changes, update_time: now })
        .where('id', '=', id)
        .execute();
    },
    async hasEvent(eventId: string): Promise<boolean> {
      return Boolean(
        await db.selectFrom('lark_events').select('event_id').where('event_id', '=', eventId).executeTakeFirst(),
      );
    },
    /** Takes an event id; false when it was taken before (a redelivery). */
    async takeEvent(eventId: string, eventType: string, itemsCreated: number, now: number): Promise<boolean> {
      const result = await db
        .insertInto('lark_events')
        .values({ event_id: eventId, event_type: eventType, items_created: itemsCreated, create_time: now })
        .onConflict((oc) => oc.column('event_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    transaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
  };
}
export type LarkDocsRepository = ReturnType<typeof createLarkDocsRepository>;
