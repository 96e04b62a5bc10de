import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/schema.ts';

/** Why a run did not succeed: retried later with backoff, or given up at once. */
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The receiver's own code, kept in the delivery log. */
    readonly code: number | null = null,
    /** The receiver asked us to wait at least this long (rate limits). */
    readonly retryAfterMs: number | null = null,
    /** The error behind it (the queue tells a database that was away from a job that failed). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'JobFailure';
  }
  static retry(message: string, options: { code?: number | null; retryAfterMs?: number | null; cause?: unknown } = {}) {
    return new JobFailure(message, true, options.code ?? null, options.retryAfterMs ?? null, options.cause);
  }
  static permanent(message: string, code: number | null = null) {
    return new JobFailure(message, false, code);
  }
}

/** What became of one run, handed to `settle` inside the transaction that records it on the job. */
export type JobOutcome<R> =
  | { status: 'done'; result: R }
  | { status: 'retry'; failure: JobFailure; runAt: number }
  | { status: 'failed'; failure: JobFailure };

export interface JobRun {
  id: number;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** Long runs call this now and then: the lease is extended, so no other process takes the run over. */
  renewLease?(): Promise<boolean>;
}

/** A declared job: its name, payload schema, retries and handler (STYLE §9). */
export interface JobDefinition<P = unknown, R = unknown> {
  kind: string;
  payload: z.ZodType<P>;
  maxAttempts: number;
  run(payload: P, job: JobRun): Promise<R>;
  /** Writes the outcome beside the job's own new state, atomically (the delivery log). */
  settle?(trx: Kysely<Database>, payload: P, outcome: JobOutcome<R>, job: JobRun): Promise<void>;
  /**
   * After that transaction committed (never when another process's record won): work outside the database, such as
   * removing a stored file, that must not happen while the outcome could still be rolled back. A crash before it runs
   * leaves that work undone (an orphan file at most), never a row pointing at a missing file.
   */
  afterCommit?(payload: P, outcome: JobOutcome<R>, job: JobRun): Promise<void>;
}

export function defineJob<P, R>(definition: JobDefinition<P, R>): JobDefinition<P, R> {
  return definition;
}

const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 30 * 60_000;

/** Exponential backoff: 30 s, 1 min, 2 min … capped at 30 min; never shorter than the receiver asked. */
export function backoffMs(attempt: number, retryAfterMs: number | null = null): number {
  const exponential = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.max(exponential, retryAfterMs ?? 0);
}
