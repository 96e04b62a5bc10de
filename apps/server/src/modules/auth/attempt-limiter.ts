import { LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES } from '@release/contract';
import type { Clock } from '../../lib/clock.ts';
import { clientAddressKey } from './client-address.ts';
import type { CounterKey, LoginGuardRepository } from './login-guard.repository.ts';

/** What is guessed: a user's password (and phone code) at sign-in, or an app's install password; or what is rate-limited the same way (tester feedback per link). */
export type GuessScope = 'login' | 'install' | 'feedback';

/** Guesses one address may make across all users (or all apps) in a window. */
export const ADDRESS_MAX_ATTEMPTS = LOGIN_MAX_FAILURES * 5;

export interface AdmittedGuess {
  /** The guess was right: the (subject, address) count starts over and the address gets this guess back. */
  succeeded(): Promise<void>;
  /** It was no guess after all (the password was right, a phone code is still to come): both counts get it back. */
  release(): Promise<void>;
}

/** A guess may be evaluated (a wrong one simply stays counted), or it is refused until the window is over. */
export type Admission = { allowed: true; guess: AdmittedGuess } | { allowed: false; retryAfterMs: number };

/**
 * Counts guesses per (subject, address) — LOGIN_MAX_FAILURES — and per address — ADDRESS_MAX_ATTEMPTS — in windows of
 * LOGIN_FAILURE_WINDOW_MS from a counter's first guess. Each guess is counted before it is evaluated, by one atomic
 * statement whose answer is the guess's place, so parallel guesses cannot all pass the check. A subject is never
 * locked for an address that did not guess on it: a right password from another address signs in.
 */
export function createAttemptLimiter(attempts: LoginGuardRepository, clock: Clock) {
  const refused = (windowStart: number): Admission => ({
    allowed: false,
    retryAfterMs: Math.max(0, windowStart + LOGIN_FAILURE_WINDOW_MS - clock.now()),
  });
  return {
    async admit(scope: GuessScope, subject: string, ip: string): Promise<Admission> {
      const pairKey: CounterKey = { scope, subject, ip: clientAddressKey(ip) };
      const addressTotal: CounterKey = { scope: `${scope}-ip`, subject: '', ip: pairKey.ip };
      const pair = await attempts.reserve(pairKey, clock.now(), LOGIN_FAILURE_WINDOW_MS);
      if (pair.attempts > LOGIN_MAX_FAILURES) return refused(pair.windowStart);
      const fromAddress = await attempts.reserve(addressTotal, clock.now(), LOGIN_FAILURE_WINDOW_MS);
      if (fromAddress.attempts > ADDRESS_MAX_ATTEMPTS) {
        // Not evaluated, so not a guess on this subject.
        await attempts.release(pairKey, pair.windowStart);
        return refused(fromAddress.windowStart);
      }
      return {
        allowed: true,
        guess: {
          async succeeded() {
            await attempts.clear(pairKey);
            await attempts.release(addressTotal, fromAddress.windowStart);
          },
          async release() {
            await attempts.release(pairKey, pair.windowStart);
            await attempts.release(addressTotal, fromAddress.windowStart);
          },
        },
      };
    },
    /** Forgets a subject's counts from every address (its password was reset). */
    async clearSubject(scope: GuessScope, subject: string) {
      await attempts.clearSubject(scope, subject);
    },
    async deleteOlderThan(time: number) {
      await attempts.deleteOlderThan(time);
    },
  };
}
export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
