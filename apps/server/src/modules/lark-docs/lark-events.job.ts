import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { IncomingEvent, LarkEventsService } from './lark-events.service.ts';

const incomingEvent = z.object({
  eventId: z.string().min(1),
  eventType: z.string(),
  createTime: z.number(),
  event: z.record(z.string(), z.unknown()),
});

/**
 * A verified Lark event, answered at once and handled here: Lark wants its 200 within 3 s and redelivers otherwise,
 * while reading the changed document from Lark's API may take longer. The job row is written before the answer,
 * so a restart between the two loses nothing; its dedupe key (the event id) keeps a redelivery from queueing it again.
 */
export function createLarkEventJob(deps: { events: LarkEventsService; jobs: JobQueue }) {
  const job = defineJob({
    kind: 'lark-docs.event',
    payload: incomingEvent,
    // Lark's API failing (not its refusal to give a text, which the service takes) is retried with backoff.
    maxAttempts: 6,
    run: (payload: IncomingEvent) => deps.events.handle(payload),
  });
  deps.jobs.register(job);
  return {
    /** Queues the event; false when the same event id was queued before (a redelivery). */
    async accept(incoming: IncomingEvent): Promise<boolean> {
      const queued = await deps.jobs.enqueue(job, incoming, { dedupeKey: `lark-event:${incoming.eventId}` });
      return queued.created;
    },
  };
}
export type LarkEventJob = ReturnType<typeof createLarkEventJob>;
