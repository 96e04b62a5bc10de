import { setTimeout as delay } from 'node:timers/promises';

export interface RetryOptions {
  /** Extra attempts after the first. */
  retries: number;
  /** Pause before attempt n+1: delayMs × n. */
  delayMs: number;
  isTransient: (error: unknown) => boolean;
  signal?: AbortSignal;
}

/** Runs `fn` until it succeeds, the error is not transient, or the attempts are spent. */
export async function withRetries<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt > options.retries || !options.isTransient(error) || options.signal?.aborted) throw error;
      if (options.delayMs > 0) await delay(options.delayMs * attempt, undefined, { signal: options.signal });
    }
  }
}
