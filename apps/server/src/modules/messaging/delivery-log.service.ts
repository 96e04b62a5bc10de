import { MessagingMessages, type DeliveryListQuery, type DeliveryRow } from '@release/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../auth/session.service.ts';
import type { DeliveriesRepository, DeliveryListRecord } from './deliveries.repository.ts';

function present(row: DeliveryListRecord): DeliveryRow {
  return {
    id: Number(row.id),
    appId: Number(row.app_id),
    appName: row.app_name ?? null,
    workflowId: row.workflow_id === null ? null : Number(row.workflow_id),
    receiverKind: row.receiver_kind,
    target: row.target,
    title: row.title,
    status: row.status,
    receiverCode: row.receiver_code === null ? null : Number(row.receiver_code),
    receiverMessage: row.receiver_message,
    attempts: Number(row.attempts),
    jobId: row.job_id === null ? null : Number(row.job_id),
    requestedBy: row.requested_by_name ?? null,
    createTime: Number(row.create_time),
    sentTime: row.sent_time === null ? null : Number(row.sent_time),
  };
}

/** The delivery log: what admins see and retry, and what a sender reads back about their own pushes. */
export function createDeliveryLogService(deps: {
  db: Kysely<Database>;
  deliveries: DeliveriesRepository;
  jobs: JobQueue;
  clock: Clock;
}) {
  const { deliveries, jobs, clock } = deps;

  async function byIds(ids: number[]): Promise<DeliveryRow[]> {
    const { rows } = await deliveries.list({ ids, offset: 0, limit: Math.max(1, ids.length) });
    return rows.map(present);
  }

  return {
    byIds,

    async list(query: DeliveryListQuery): Promise<{ rows: DeliveryRow[]; total: number }> {
      const { rows, total } = await deliveries.list({
        appId: query.appId,
        status: query.status,
        offset: (query.pageNo - 1) * query.pageSize,
        limit: query.pageSize,
      });
      return { rows: rows.map(present), total };
    },

    /** A sender's own deliveries (the web app follows them to show the receiver's answer). */
    async mine(user: AuthUser, ids: number[]): Promise<DeliveryRow[]> {
      const { rows } = await deliveries.list({
        ids,
        requestedBy: user.isAdmin ? undefined : user.userId,
        offset: 0,
        limit: ids.length,
      });
      return rows.map(present);
    },

    /**
     * An admin sends a failed delivery again, from its first attempt. For an interrupted one this is the
     * admin's call: the receiver may already have it.
     */
    async retry(id: number): Promise<DeliveryRow> {
      const delivery = await deliveries.findById(id);
      if (!delivery) throw AppError.notFound(MessagingMessages.deliveryNotFound);
      if (delivery.status !== 'failed' || delivery.job_id === null)
        throw AppError.conflict(MessagingMessages.retryOnlyFailed);
      const jobId = Number(delivery.job_id);
      const reset = await deps.db.transaction().execute(async (trx) => {
        if (!(await jobs.repository.reset(trx, jobId, clock.now()))) return false;
        await deliveries.reopen(trx, id);
        return true;
      });
      if (!reset) throw AppError.conflict(MessagingMessages.retryOnlyFailed);
      jobs.wake();
      const [row] = await byIds([id]);
      if (!row) throw AppError.notFound(MessagingMessages.deliveryNotFound);
      return row;
    },
  };
}
export type DeliveryLogService = ReturnType<typeof createDeliveryLogService>;
