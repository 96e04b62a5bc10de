import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DeliveriesRepository } from './deliveries.repository.ts';
import type { DeliveryJob, DeliveryPayload } from './delivery.job.ts';
import type { MessageContent } from './message-content.ts';

/** One receiver of a message, as the delivery job takes it, with what the log shows. */
export interface PlannedDelivery {
  receiver: DeliveryPayload['receiver'];
  /** Masked robot address or the Lark user's name. */
  target: string;
}

export interface DeliveryBatch {
  appId: number;
  workflowId: number | null;
  requestedBy: number | null;
  content: MessageContent;
  receivers: PlannedDelivery[];
  /** Makes the batch's jobs unique (autoPush), so the same items are never queued twice. */
  dedupeKey?: string;
}

/** Writes the delivery rows and their jobs in one transaction: a row never exists without its job. */
export function createDeliveryQueue(deps: {
  db: Kysely<Database>;
  deliveries: DeliveriesRepository;
  jobs: JobQueue;
  job: () => DeliveryJob;
  clock: Clock;
}) {
  const { deliveries, jobs, clock } = deps;

  async function queueIn(trx: Kysely<Database>, batch: DeliveryBatch): Promise<number[]> {
    const ids: number[] = [];
    const now = clock.now();
    for (const [index, receiver] of batch.receivers.entries()) {
      const id = await deliveries.insert(trx, {
        app_id: batch.appId,
        workflow_id: batch.workflowId,
        receiver_kind: receiver.receiver.kind,
        target: receiver.target.slice(0, 255),
        title: batch.content.title.slice(0, 255),
        status: 'pending',
        receiver_code: null,
        receiver_message: null,
        job_id: null,
        sending_since: null,
        requested_by: batch.requestedBy,
        create_time: now,
        sent_time: null,
      });
      const queued = await jobs.enqueue(
        deps.job(),
        { deliveryId: id, receiver: receiver.receiver, content: batch.content },
        { trx, dedupeKey: batch.dedupeKey ? `${batch.dedupeKey}:${index}` : undefined },
      );
      await deliveries.attachJob(trx, id, queued.id);
      ids.push(id);
    }
    return ids;
  }

  return {
    queueIn,
    async queue(batch: DeliveryBatch): Promise<number[]> {
      const ids = await deps.db.transaction().execute((trx) => queueIn(trx, batch));
      jobs.wake();
      return ids;
    },
  };
}
export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
