import type { Kysely } from 'kysely';
import type { Database, DeliveriesTable, Insertable } from '../../db/schema.ts';

export interface DeliveryFilter {
  appId?: number;
  status?: DeliveriesTable['status'];
  requestedBy?: number;
  ids?: number[];
  offset: number;
  limit: number;
}

/** Every statement of the delivery log. Writes take an executor so they can share the job's transaction. */
export function createDeliveriesRepository(db: Kysely<Database>) {
  function listQuery(filter: Omit<DeliveryFilter, 'offset' | 'limit'>) {
    let q = db
      .selectFrom('deliveries as d')
      .leftJoin('apps as a', 'a.id', 'd.app_id')
      .leftJoin('users as u', 'u.id', 'd.requested_by');
    if (filter.appId) q = q.where('d.app_id', '=', filter.appId);
    if (filter.status) q = q.where('d.status', '=', filter.status);
    if (filter.requestedBy) q = q.where('d.requested_by', '=', filter.requestedBy);
    if (filter.ids) q = q.where('d.id', 'in', filter.ids.length ? filter.ids : [0]);
    return q;
  }

  return {
    async insert(executor: Kysely<Database>, row: Insertable<DeliveriesTable>): Promise<number> {
      const inserted = await executor.insertInto('deliveries').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(inserted.id);
    },
    async attachJob(executor: Kysely<Database>, id: number, jobId: number) {
      await executor.updateTable('deliveries').set({ job_id: jobId }).where('id', '=', id).execute();
    },
    async findById(id: number) {
      return db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Marks the request as leaving now; a crash from here on leaves the outcome unknown. */
    async markSending(id: number, now: number) {
      await db
        .updateTable('deliveries')
        .set((eb) => ({ sending_since: now, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
    async settle(
      executor: Kysely<Database>,
      id: number,
      change: { status: DeliveriesTable['status']; code: number | null; message: string | null; sentTime?: number },
    ) {
      await executor
        .updateTable('deliveries')
        .set({
          status: change.status,
          receiver_code: change.code,
          receiver_message: change.message,
          sending_since: null,
          ...(change.sentTime ? { sent_time: change.sentTime } : {}),
        })
        .where('id', '=', id)
        .where('status', '!=', 'sent')
        .execute();
    },
    /** A failed delivery goes back to pending for an admin's retry; its interrupted mark is dropped with it. */
    async reopen(executor: Kysely<Database>, id: number) {
      await executor
        .updateTable('deliveries')
        .set({ status: 'pending', receiver_code: null, receiver_message: null, sending_since: null })
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .execute();
    },
    async list(filter: DeliveryFilter) {
      const [rows, total] = await Promise.all([
        listQuery(filter)
          .selectAll('d')
          .select(['a.app_name as app_name', 'u.username as requested_by_name'])
          .orderBy('d.create_time', 'desc')
          .orderBy('d.id', 'desc')
          .offset(filter.offset)
          .limit(filter.limit)
          .execute(),
        listQuery(filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },
  };
}
export type DeliveriesRepository = ReturnType<typeof createDeliveriesRepository>;
export type DeliveryListRecord = Awaited<ReturnType<DeliveriesRepository['list']>>['rows'][number];
