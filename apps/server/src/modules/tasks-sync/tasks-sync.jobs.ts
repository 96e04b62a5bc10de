import { z } from 'zod';
import { LarkTaskMessages } from '@release/contract';
import { defineJob, JobFailure } from '../../jobs/job-definition.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { databaseFault } from '../../db/faults.ts';
import type { Clock } from '../../lib/clock.ts';
import { LarkApiError } from '../../integrations/lark/lark-client.ts';
import { isLarkFailure, isRetryableLarkError, larkTaskErrorMessage } from '../../integrations/lark/lark-task-errors.ts';
import type { SyncRunner } from './sync-runner.ts';
import type { TasksSyncRepository } from './tasks-sync.repository.ts';

/** How often each linked app's task list and table are read for changes made in Lark. */
export const PULL_INTERVAL_MS = 5 * 60_000;

function failureOf(error: unknown): JobFailure {
  // Not Lark's failure (say an attachment gone from the store): the record's history says what it was.
  const message = isLarkFailure(error)
    ? larkTaskErrorMessage(error)
    : LarkTaskMessages.recordFailed(error instanceof Error ? error.message : String(error));
  const code = error instanceof LarkApiError ? error.code : null;
  // Our database away (a restart, a failover): the queue runs it again when it is back, and the pull keeps its schedule.
  if (databaseFault(error) === 'unavailable') return JobFailure.retry(message, { cause: error });
  if (isRetryableLarkError(error))
    return JobFailure.retry(message, { code, retryAfterMs: error instanceof LarkApiError ? error.retryAfterMs : null });
  return JobFailure.permanent(message, code);
}

/** A local change (or comment) of one record to Lark; retried with backoff, a refusal written to the record's history. */
export function createPushJob(deps: { runner: SyncRunner; sync: TasksSyncRepository; clock: Clock }) {
  return defineJob({
    kind: 'tasks-sync.push',
    payload: z.object({ recordId: z.number().int(), comments: z.boolean().default(false) }),
    maxAttempts: 8,
    async run(payload) {
      const record = await deps.sync.findById(payload.recordId);
      if (!record) return { skipped: 'gone' };
      try {
        return await deps.runner.syncRecord(record, payload.comments);
      } catch (error) {
        throw failureOf(error);
      }
    },
    async settle(trx, payload, outcome) {
      if (outcome.status !== 'failed') return;
      const record = await deps.sync.findById(payload.recordId, trx);
      // The drawer's history shows why Lark did not take the change (in the job's own transaction).
      if (record)
        await deps.sync.note(
          record,
          [
            {
              actor_id: null,
              source: 'lark',
              field: 'larkSyncFailed',
              old_value: null,
              new_value: outcome.failure.message,
              create_time: deps.clock.now(),
              comment_id: null,
            },
          ],
          trx,
        );
    },
  });
}

/**
 * Reads one app's task list and table for Lark's changes. The schedule 飞书任务同步 (every PULL_INTERVAL_MS, taken by
 * one process of the cluster) queues one per linked app; linking a list or a table and Lark's events queue one now.
 */
export function createPullJob(deps: {
  runner: SyncRunner;
  sync: TasksSyncRepository;
  clock: Clock;
  jobs: () => JobQueue;
}) {
  const job = defineJob({
    kind: 'tasks-sync.pull',
    payload: z.object({ appId: z.number().int() }),
    maxAttempts: 3,
    async run(payload) {
      const settings = await deps.sync.settings(payload.appId);
      if (!settings?.lark_task_list_guid && !settings?.lark_app_token) return { skipped: 'not linked' };
      try {
        return await deps.runner.syncApp(payload.appId);
      } catch (error) {
        throw failureOf(error);
      }
    },
  });
  /** One pull per app and interval slot, however often it is asked for. */
  async function schedule(appId: number, runAt: number) {
    await deps
      .jobs()
      .enqueue(
        job,
        { appId },
        { runAt, dedupeKey: `tasks-sync:pull:${appId}:${Math.floor(runAt / PULL_INTERVAL_MS)}` },
      );
  }
  /** One pull now for a change Lark told us of (its event id: a redelivered event queues nothing more). */
  async function onEvent(appId: number, eventId: string) {
    await deps
      .jobs()
      .enqueue(job, { appId }, { runAt: deps.clock.now(), dedupeKey: `tasks-sync:pull:${appId}:event:${eventId}` });
  }
  /** The schedule's run: a pull of every linked app now. */
  async function pullAll(): Promise<number> {
    const apps = await deps.sync.linkedApps();
    for (const appId of apps) await schedule(appId, deps.clock.now());
    return apps.length;
  }
  return { job, schedule, onEvent, pullAll };
}
