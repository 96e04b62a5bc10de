import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import type { JobQueue } from '../../jobs/queue.ts';

const larkDocumentEvent = z.object({
  eventId: z.string().min(1),
  eventType: z.string(),
  createTime: z.number(),
  event: z.record(z.string(), z.unknown()),
});
/** A Lark event whose envelope was verified (token, AES, signature): what happened to which document. */
export type LarkDocumentEvent = z.infer<typeof larkDocumentEvent>;

/** Reads an event into update items of the workflows following the document (modules/lark-docs). */
export interface LarkDocumentReader {
  handle(event: LarkDocumentEvent): Promise<unknown>;
}

/**
 * A verified Lark document event, answered at once and handled here: Lark wants its 200 within 3 s and redelivers
 * otherwise, while reading the changed document from Lark's API may take longer. The job row is written before the
 * answer, so a restart between the two loses nothing; its dedupe key (the event id) keeps a redelivery from queueing
 * it again. The reader is lark-docs' event service (core-services.ts builds it before the inbound service).
 */
export function createLarkEventJob(deps: { jobs: JobQueue; reader: LarkDocumentReader }) {
  const job = defineJob({
    kind: 'lark-docs.event',
    payload: larkDocumentEvent,
    // Lark's API failing (not its refusal to give a text, which the service takes) is retried with backoff.
    maxAttempts: 6,
    run: (payload: LarkDocumentEvent) => deps.reader.handle(payload),
  });
  deps.jobs.register(job);
  return {
    /** Queues the event; false when the same event id was queued before (a redelivery). */
    async accept(incoming: LarkDocumentEvent): Promise<boolean> {
      const queued = await deps.jobs.enqueue(job, incoming, { dedupeKey: `lark-event:${incoming.eventId}` });
      return queued.created;
    },
  };
}
