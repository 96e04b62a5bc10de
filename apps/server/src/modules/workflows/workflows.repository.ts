import type { Kysely, Selectable } from 'kysely';
import type { Database, Insertable, WorkflowsTable } from '../../db/schema.ts';
import { workflowColumns } from './workflow-columns.ts';

/** A workflow as services see it: the committer filter decoded (workflow-columns.ts). */
export type WorkflowRecord = Omit<Selectable<WorkflowsTable>, 'committers'> & { committers: string[] };
/** Columns as services write them: the committer filter as a list, encoded here. */
export type WorkflowWrite = Omit<Insertable<WorkflowsTable>, 'committers'> & { committers: string[] };

const decode = (row: Selectable<WorkflowsTable>): WorkflowRecord => ({
  ...row,
  committers: workflowColumns.committers.decode(row.committers),
});
function encode(changes: Partial<WorkflowWrite>): Partial<Insertable<WorkflowsTable>> {
  const { committers, ...rest } = changes;
  return committers === undefined ? rest : { ...rest, committers: workflowColumns.committers.encode(committers) };
}

export function createWorkflowsRepository(db: Kysely<Database>) {
  return {
    async listByApp(appId: number) {
      return db
        .selectFrom('workflows')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('order_no')
        .orderBy('id')
        .execute()
        .then((rows) => rows.map(decode));
    },
    async findById(id: number): Promise<WorkflowRecord | undefined> {
      const row = await db.selectFrom('workflows').selectAll().where('id', '=', id).executeTakeFirst();
      return row && decode(row);
    },
    async findByIds(ids: number[]) {
      if (!ids.length) return [];
      return (await db.selectFrom('workflows').selectAll().where('id', 'in', ids).execute()).map(decode);
    },
    async findByWebhookToken(token: string): Promise<WorkflowRecord | undefined> {
      const row = await db.selectFrom('workflows').selectAll().where('webhook_token', '=', token).executeTakeFirst();
      return row && decode(row);
    },
    async packageWorkflows(appId: number) {
      return db
        .selectFrom('workflows')
        .selectAll()
        .where('app_id', '=', appId)
        .where('content_type', '=', 'package')
        .execute()
        .then((rows) => rows.map(decode));
    },
    /** Repository workflows that are polled (git and svn). */
    async polled() {
      return db
        .selectFrom('workflows')
        .selectAll()
        .where('content_type', '=', 'default')
        .where('repo_type', 'in', ['git', 'svn'])
        .execute()
        .then((rows) => rows.map(decode));
    },
    async insert(row: WorkflowWrite): Promise<number> {
      const inserted = await db
        .insertInto('workflows')
        .values({ ...row, committers: workflowColumns.committers.encode(row.committers) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(inserted.id);
    },
    async update(id: number, changes: Partial<WorkflowWrite>) {
      await db.updateTable('workflows').set(encode(changes)).where('id', '=', id).execute();
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
