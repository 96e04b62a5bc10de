import { MessagingMessages } from '@release/contract';
import type { Kysely } from 'kysely';
import type { Clock } from '../../lib/clock.ts';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { defineJob, JobFailure } from '../../jobs/job-definition.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { composeContent } from './compose.ts';
import type { MediaLinks } from '../../http/media-links.ts';
import type { DeliveryQueue } from './delivery-queue.ts';
import { parseRobotUrl, type RobotHosts } from '../../integrations/robot-destination.ts';
import type { MessagingRepository } from './messaging.repository.ts';

export const AUTO_PUSH_JOB = 'messaging.auto-push';
/**
 * autoPush announces what happened lately: items made longer ago than this are history arriving (a new
 * repository's first sync, a package workflow's backfill) and are passed over, not sent.
 */
export const AUTO_PUSH_RECENT_MS = 24 * 60 * 60_000;

export interface AutoPushDeps {
  db: Kysely<Database>;
  messaging: MessagingRepository;
  queue: DeliveryQueue;
  jobs: JobQueue;
  hosts: RobotHosts;
  /** PUBLIC_URL: links in an automatic message need it (there is no request to take the host from). */
  publicUrl: string | null;
  clock: Clock;
  mediaLinks: MediaLinks;
}

/**
 * autoPush (SPEC §3): a workflow with a robot sends its new items by itself. The workflow keeps a cursor
 * (the highest item id handed to a delivery); moving it and queueing the delivery happen in one transaction,
 * and the move only succeeds from the value this run read, so an item is never queued twice, however many
 * runs race or repeat.
 */
export function createAutoPushJob(deps: AutoPushDeps) {
  const { db, messaging, queue, hosts } = deps;

  const job = defineJob({
    kind: AUTO_PUSH_JOB,
    payload: z.object({ workflowId: z.number().int() }),
    maxAttempts: 5,
    async run({ workflowId }): Promise<{ queued: number }> {
      const workflow = await messaging.workflow(workflowId);
      if (workflow?.auto_push !== 1 || !workflow.robot_url) return { queued: 0 };
      const destination = parseRobotUrl(workflow.robot_url, hosts);
      if (!destination) throw JobFailure.permanent(MessagingMessages.robotUrlRefused);
      const app = await messaging.app(workflow.app_id);
      if (!app) return { queued: 0 };
      const from = workflow.auto_push_cursor;
      const fresh = await messaging.itemsAfter(workflowId, from ?? 0, deps.clock.now() - AUTO_PUSH_RECENT_MS);
      if (fresh.maxId === null) return { queued: 0 };
      const upTo = fresh.maxId;
      const content = composeContent({
        app,
        workflow,
        version: null,
        commits: fresh.rows,
        totalCommits: fresh.total,
        baseUrl: deps.publicUrl,
        mediaLinks: deps.mediaLinks,
      });
      const receiver =
        destination.kind === 'lark-bot'
          ? { kind: 'lark-bot' as const, url: destination.url, secretWorkflowId: workflow.id }
          : { kind: 'wecom-robot' as const, url: destination.url };
      const queued = await db.transaction().execute(async (trx) => {
        if (!(await messaging.moveAutoPushCursor(trx, workflowId, from, upTo))) return 0;
        // Only hidden items (filtered committers, merges) or history were new: the cursor moves past them, nothing is sent.
        if (!fresh.rows.length) return 0;
        const ids = await queue.queueIn(trx, {
          appId: app.id,
          workflowId,
          requestedBy: null,
          content,
          receivers: [{ receiver, target: destination.masked }],
          dedupeKey: `auto-push:${workflowId}:${upTo}`,
        });
        return ids.length;
      });
      if (queued) deps.jobs.wake();
      return { queued };
    },
  });

  return {
    job,
    /** Called after new items were stored: one run per workflow with autoPush on (runs are cheap and idempotent). */
    async trigger(workflows: Array<{ id: number; auto_push: number; robot_url: string | null }>) {
      for (const w of workflows) {
        if (w.auto_push === 1 && w.robot_url) await deps.jobs.enqueue(job, { workflowId: w.id });
      }
    },
  };
}
export type AutoPush = ReturnType<typeof createAutoPushJob>;
