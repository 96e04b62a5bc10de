import { sql, type Kysely } from 'kysely';
import type { Database, JobsTable } from '../db/schema.ts';

export type JobRecord = {
  id: number;
  kind: string;
  payload: string;
  status: JobsTable['status'];
  attempts: number;
  max_attempts: number;
  run_at: number;
  lease_owner: string | null;
  lease_expire_time: number | null;
  last_error: string | null;
  dedupe_key: string | null;
};

export interface NewJob {
  kind: string;
  payload: unknown;
  maxAttempts: number;
  runAt: number;
  dedupeKey?: string | null;
}

/** Every statement of the job queue. */
export function createJobRepository(db: Kysely<Database>, dialect: 'sqlite' | 'postgres') {
  return {
    /** Adds a job; a dedupe key already queued answers the existing job's id instead. */
    async enqueue(executor: Kysely<Database>, job: NewJob, now: number): Promise<{ id: number; created: boolean }> {
      const inserted = await executor
        .insertInto('jobs')
        .values({
          kind: job.kind,
          payload: JSON.stringify(job.payload),
          status: 'pending',
          max_attempts: job.maxAttempts,
          run_at: job.runAt,
          lease_owner: null,
          lease_expire_time: null,
          last_error: null,
          dedupe_key: job.dedupeKey ?? null,
          create_time: now,
          update_time: now,
          finish_time: null,
        })
        .onConflict((oc) => oc.column('dedupe_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) return { id: Number(inserted.id), created: true };
      const existing = await executor
        .selectFrom('jobs')
        .select('id')
        .where('dedupe_key', '=', job.dedupeKey ?? '')
        .executeTakeFirstOrThrow();
      return { id: Number(existing.id), created: false };
    },

    /**
     * Takes up to `limit` due jobs under a lease: pending ones whose time has come, and running ones whose lease
     * expired (their process died). PostgreSQL skips rows another process is claiming; SQLite runs the one
     * statement while holding the write lock, so two processes never take the same row either way.
     */
    async claim(owner: string, now: number, leaseMs: number, limit: number): Promise<JobRecord[]> {
      const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
      const result = await sql<JobRecord>`
        update jobs set status = 'running', lease_owner = ${owner}, lease_expire_time = ${now + leaseMs},
          attempts = attempts + 1, update_time = ${now}
        where id in (
          select id from jobs
          where (status = 'pending' and run_at <= ${now}) or (status = 'running' and lease_expire_time < ${now})
          order by run_at, id limit ${limit} ${lock}
        )
        returning id, kind, payload, status, attempts, max_attempts, run_at, lease_owner, lease_expire_time, last_error, dedupe_key`.execute(
        db,
      );
      return result.rows.map((r) => ({
        ...r,
        id: Number(r.id),
        attempts: Number(r.attempts),
        max_attempts: Number(r.max_attempts),
      }));
    },

    /** Records a run's end, only while this process still holds the lease; answers whether it did. */
    async finish(
      executor: Kysely<Database>,
      job: { id: number; owner: string },
      change: { status: 'done' | 'failed' | 'pending'; runAt?: number; error: string | null },
      now: number,
    ): Promise<boolean> {
      const result = await executor
        .updateTable('jobs')
        .set({
          status: change.status,
          last_error: change.error,
          lease_owner: null,
          lease_expire_time: null,
          update_time: now,
          ...(change.runAt !== undefined ? { run_at: change.runAt } : {}),
          ...(change.status === 'pending' ? {} : { finish_time: now }),
        })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', job.owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Keeps a long run's lease while this process still holds it; answers whether it does. */
    async renewLease(job: { id: number; owner: string }, until: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('jobs')
        .set({ lease_expire_time: until, update_time: now })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', job.owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** A failed job runs again from its first attempt (an admin's retry). */
    async reset(executor: Kysely<Database>, id: number, now: number): Promise<boolean> {
      const result = await executor
        .updateTable('jobs')
        .set({ status: 'pending', attempts: 0, run_at: now, last_error: null, finish_time: null, update_time: now })
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async findById(id: number) {
      return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** When the next pending job is due (null when none), so an idle runner can sleep until then. */
    async nextRunAt(): Promise<number | null> {
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('run_at').as('next'))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return row?.next == null ? null : Number(row.next);
    },

    /**
     * The queue per kind: jobs pending, running and failed, and when the oldest due pending job became due (null when
     * none is due). One grouped statement over the jobs still kept (done ones are purged after a week).
     */
    async queueStats(now: number) {
      const rows = await db
        .selectFrom('jobs')
        .select(['kind', 'status'])
        .select((eb) => [
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.min(sql<number | null>`case when run_at <= ${now} then run_at end`).as('oldest_due'),
        ])
        .where('status', 'in', ['pending', 'running', 'failed'])
        .groupBy(['kind', 'status'])
        .execute();
      return rows.map((r) => ({
        kind: r.kind,
        status: r.status as 'pending' | 'running' | 'failed',
        count: Number(r.n),
        oldestDue: r.oldest_due == null ? null : Number(r.oldest_due),
      }));
    },

    /** Done jobs older than the cut-off go (the delivery log keeps what happened); failed ones stay for a retry. */
    async deleteDoneBefore(cutoff: number) {
      await db.deleteFrom('jobs').where('status', '=', 'done').where('finish_time', '<', cutoff).execute();
    },
  };
}
export type JobRepository = ReturnType<typeof createJobRepository>;
