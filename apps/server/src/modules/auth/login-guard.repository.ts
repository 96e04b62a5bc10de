import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Whose guesses one counter holds: a scope ('login', 'install', or their '-ip' totals), its subject and the address. */
export interface CounterKey {
  scope: string;
  /** The lowered username or the app id; '' for an address's total across them. */
  subject: string;
  ip: string;
}

/** Guess counters, kept in the database so every server process sees them. */
export function createLoginGuardRepository(db: Kysely<Database>) {
  return {
    /**
     * Counts one more guess in one statement and answers the count with it (this guess's place): the row is created, or
     * bumped, or started afresh when its window (`windowMs` from its first guess) is over. Parallel calls each get their
     * own count — PostgreSQL locks the row for the update and SQLite writes one statement at a time.
     */
    async reserve(key: CounterKey, now: number, windowMs: number): Promise<{ attempts: number; windowStart: number }> {
      const row = await db
        .insertInto('attempt_counters')
        .values({ ...key, window_start: now, attempts: 1 })
        .onConflict((oc) =>
          oc.columns(['scope', 'subject', 'ip']).doUpdateSet((eb) => {
            const over = eb('attempt_counters.window_start', '<=', now - windowMs);
            return {
              attempts: eb
                .case()
                .when(over)
                .then(1)
                .else(eb('attempt_counters.attempts', '+', 1))
                .end(),
              window_start: eb.case().when(over).then(now).else(eb.ref('attempt_counters.window_start')).end(),
            };
          }),
        )
        .returning(['attempts', 'window_start'])
        .executeTakeFirstOrThrow();
      return { attempts: Number(row.attempts), windowStart: Number(row.window_start) };
    },
    /** Gives back one guess counted in the window that began at `windowStart` (nothing when that window is over). */
    async release(key: CounterKey, windowStart: number) {
      await db
        .updateTable('attempt_counters')
        .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
        .where('scope', '=', key.scope)
        .where('subject', '=', key.subject)
        .where('ip', '=', key.ip)
        .where('window_start', '=', windowStart)
        .where('attempts', '>', 0)
        .execute();
    },
    async clear(key: CounterKey) {
      await db
        .deleteFrom('attempt_counters')
        .where('scope', '=', key.scope)
        .where('subject', '=', key.subject)
        .where('ip', '=', key.ip)
        .execute();
    },
    /** Clears a subject's counters from every address (a password reset). */
    async clearSubject(scope: string, subject: string) {
      await db.deleteFrom('attempt_counters').where('scope', '=', scope).where('subject', '=', subject).execute();
    },
    async deleteOlderThan(time: number) {
      await db.deleteFrom('attempt_counters').where('window_start', '<=', time).execute();
    },
  };
}
export type LoginGuardRepository = ReturnType<typeof createLoginGuardRepository>;
