import { randomBytes } from 'node:crypto';
import { PostgresAdapter, type Kysely } from 'kysely';
import { databaseFault } from '../db/faults.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { backoffMs, JobFailure, type JobDefinition, type JobOutcome, type JobRun } from './job-definition.ts';
import { createJobRepository, type JobRecord } from './job.repository.ts';
import type { Logger } from '../lib/logger.ts';

/** Longer than any single run (HTTP calls time out after 15 s): a lease that expires means the process died. */
export const LEASE_MS = 2 * 60_000;
const IDLE_POLL_MS = 5_000;
const DONE_JOBS_KEPT_MS = 7 * 24 * 60 * 60_000;

/** One kind's line of the queue (the shape of JobQueueRow in the contract). */
export interface JobQueueFigures {
  kind: string;
  pending: number;
  running: number;
  failed: number;
  oldestPendingAgeMs: number;
}

export interface EnqueueOptions {
  /** A job with this key already queued is not queued again. */
  dedupeKey?: string;
  runAt?: number;
  maxAttempts?: number;
  /** Enqueue inside the caller's transaction. */
  trx?: Kysely<Database>;
}

/**
 * The durable queue in the database: `enqueue` from anywhere, `start` a runner in each process (main.ts),
 * `runDue` to drain what is due now (tests, and the runner's own loop).
 */
export function createJobQueue(deps: {
  db: Kysely<Database>;
  clock: Clock;
  logger?: Logger;
  owner?: string;
  concurrency?: number;
}) {
  const { db, clock } = deps;
  const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  const jobs = createJobRepository(db, dialect);
  const definitions = new Map<string, JobDefinition<unknown, unknown>>();
  const owner = deps.owner ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
  const concurrency = deps.concurrency ?? 4;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let wakeRequested = false;
  let draining: Promise<number> | null = null;

  function failureOf(error: unknown): JobFailure {
    if (error instanceof JobFailure) return error;
    // A bad payload never gets better by waiting.
    if (error instanceof Error && error.name === 'ZodError')
      return JobFailure.permanent(`任务参数无效：${error.message}`);
    return JobFailure.retry(error instanceof Error ? error.message : String(error), { cause: error });
  }

  async function settle(
    record: JobRecord,
    definition: JobDefinition<unknown, unknown> | undefined,
    payload: unknown,
    outcome: JobOutcome<unknown>,
    run: JobRun,
  ) {
    const now = clock.now();
    const change =
      outcome.status === 'done'
        ? { status: 'done' as const, error: null }
        : outcome.status === 'retry'
          ? { status: 'pending' as const, runAt: outcome.runAt, error: outcome.failure.message }
          : { status: 'failed' as const, error: outcome.failure.message };
    const recorded = await db.transaction().execute(async (trx) => {
      // Another process took the job over (our lease expired): what it records wins.
      if (!(await jobs.finish(trx, { id: record.id, owner }, change, now))) return false;
      await definition?.settle?.(trx, payload, outcome, run);
      return true;
    });
    if (recorded)
      await definition
        ?.afterCommit?.(payload, outcome, run)
        .catch((error: unknown) =>
          deps.logger?.error({ err: error, jobId: record.id }, 'the work after a job outcome failed'),
        );
  }

  async function runOne(record: JobRecord): Promise<void> {
    const definition = definitions.get(record.kind);
    const run: JobRun = {
      id: record.id,
      attempt: record.attempts,
      maxAttempts: record.max_attempts,
      renewLease: () => jobs.renewLease({ id: record.id, owner }, clock.now() + LEASE_MS, clock.now()),
    };
    let payload: unknown = null;
    let outcome: JobOutcome<unknown>;
    try {
      if (!definition) throw JobFailure.permanent(`未知的任务类型：${record.kind}`);
      payload = definition.payload.parse(JSON.parse(record.payload));
      outcome = { status: 'done', result: await definition.run(payload, run) };
    } catch (error) {
      const failure = failureOf(error);
      // A database that was away (a restart, a failover) failed the place, not the job: tried again, whatever its count.
      const placeFailed = failure.retryable && databaseFault(failure) === 'unavailable';
      if (!failure.retryable || (record.attempts >= record.max_attempts && !placeFailed))
        outcome = { status: 'failed', failure };
      else
        outcome = { status: 'retry', failure, runAt: clock.now() + backoffMs(record.attempts, failure.retryAfterMs) };
    }
    try {
      await settle(record, definition, payload, outcome, run);
    } catch (error) {
      // The lease runs out and the job is picked up again: its handler decides what a half-finished run means.
      deps.logger?.error({ err: error, jobId: record.id }, 'recording a job outcome failed');
    }
  }

  /** Claims and runs what is due until nothing is; answers how many runs were made. */
  async function drain(): Promise<number> {
    let count = 0;
    for (;;) {
      const claimed = await jobs.claim(owner, clock.now(), LEASE_MS, concurrency);
      if (!claimed.length) return count;
      await Promise.all(claimed.map(runOne));
      count += claimed.length;
    }
  }

  function runDue(): Promise<number> {
    // One drain at a time per process; a wake-up during a drain is served by that drain's next claim.
    draining ??= drain().finally(() => {
      draining = null;
    });
    return draining;
  }

  async function tick() {
    timer = null;
    if (!running) return;
    try {
      await runDue();
    } catch (error) {
      deps.logger?.error({ err: error }, 'job runner failed');
    }
    if (running) timer = setTimeout(() => void tick(), wakeRequested ? 0 : IDLE_POLL_MS);
    wakeRequested = false;
  }

  /** Runs soon in this process (another process finds the job on its next poll). */
  function wake() {
    if (!running) return;
    if (!timer) {
      // A drain is in progress: loop once more when it ends.
      wakeRequested = true;
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), 0);
  }

  return {
    owner,
    repository: jobs,

    register(definition: JobDefinition<unknown, unknown>) {
      definitions.set(definition.kind, definition);
    },

    async enqueue<P>(
      definition: JobDefinition<P, unknown>,
      payload: P,
      options: EnqueueOptions = {},
    ): Promise<{ id: number; created: boolean }> {
      const now = clock.now();
      const queued = await jobs.enqueue(
        options.trx ?? db,
        {
          kind: definition.kind,
          payload,
          maxAttempts: options.maxAttempts ?? definition.maxAttempts,
          runAt: options.runAt ?? now,
          dedupeKey: options.dedupeKey,
        },
        now,
      );
      wake();
      return queued;
    },

    runDue,

    wake,

    start() {
      if (running) return;
      running = true;
      timer = setTimeout(() => void tick(), 0);
    },

    /** Stops polling and waits for the runs in flight. */
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await draining?.catch(() => undefined);
    },

    /** Per kind: pending, running, failed, and how long the oldest due job has waited (admin page, /metrics). */
    async queueFigures(): Promise<JobQueueFigures[]> {
      const now = clock.now();
      const byKind = new Map<string, JobQueueFigures>();
      for (const r of await jobs.queueStats(now)) {
        const row = byKind.get(r.kind) ?? { kind: r.kind, pending: 0, running: 0, failed: 0, oldestPendingAgeMs: 0 };
        row[r.status] = r.count;
        if (r.status === 'pending' && r.oldestDue !== null) row.oldestPendingAgeMs = Math.max(0, now - r.oldestDue);
        byKind.set(r.kind, row);
      }
      return [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
    },

    async purgeDone() {
      await jobs.deleteDoneBefore(clock.now() - DONE_JOBS_KEPT_MS);
    },
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;
