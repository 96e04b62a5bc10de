import type { Kysely } from 'kysely';
import type { Database, Insertable, WorkflowsTable } from '../../db/schema.ts';

export function createWorkflowsRepository(db: Kysely<Database>) {
  return {
    async listByApp(appId: number) {
      return db
        .selectFrom('workflows')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('order_no')
        .orderBy('id')
        .execute();
    },
    async findById(id: number) {
      return db.selectFrom('workflows').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByIds(ids: number[]) {
      if (!ids.length) return [];
      return db.selectFrom('workflows').selectAll().where('id', 'in', ids).execute();
    },
    async findByWebhookToken(token: string) {
      return db.selectFrom('workflows').selectAll().where('webhook_token', '=', token).executeTakeFirst();
    },
    async packageWorkflows(appId: number) {
      return db
        .selectFrom('workflows')
        .selectAll()
        .where('app_id', '=', appId)
        .where('content_type', '=', 'package')
        .execute();
    },
    /** Repository workflows that are polled (git and svn). */
    async polled() {
      return db
        .selectFrom('workflows')
        .selectAll()
        .where('content_type', '=', 'default')
        .where('repo_type', 'in', ['git', 'svn'])
        .execute();
    },
    async insert(row: Insertable<WorkflowsTable>): Promise<number> {
      const inserted = await db.insertInto('workflows').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(inserted.id);
    },
    async update(id: number, changes: Partial<Insertable<WorkflowsTable>>) {
      await db.updateTable('workflows').set(changes).where('id', '=', id).execute();
    },
    async setOrders(appId: number, orders: Array<{ id: number; orderNo: number }>) {
      await db.transaction().execute(async (trx) => {
        for (const { id, orderNo } of orders)
          await trx
            .updateTable('workflows')
            .set({ order_no: orderNo })
            .where('id', '=', id)
            .where('app_id', '=', appId)
            .execute();
      });
    },
    async delete(id: number) {
      await db.deleteFrom('workflows').where('id', '=', id).execute();
    },
  };
}
export type WorkflowsRepository = ReturnType<typeof createWorkflowsRepository>;
export type WorkflowRecord = NonNullable<Awaited<ReturnType<WorkflowsRepository['findById']>>>;
