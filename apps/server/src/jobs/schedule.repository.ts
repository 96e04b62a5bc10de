import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export type ScheduleRecord = Database['job_schedules'];

/** Every statement of the schedules: rows shared by all processes, taken by one at a time under a lease. */
export function createScheduleRepository(db: Kysely<Database>) {
  return {
    /**
     * Adds a schedule the first time a process defines it (its first run one interval later, as a timer would); a
     * changed interval (SYNC_INTERVAL_SEC) takes effect at once, never later than the new interval from now.
     */
    async ensure(name: string, intervalMs: number, now: number): Promise<void> {
      await db
        .insertInto('job_schedules')
        .values({
          name,
          interval_ms: intervalMs,
          enabled: 1,
          next_run_at: now + intervalMs,
          claimed_by: null,
          lease_expire_time: null,
          last_run_at: null,
          last_duration_ms: null,
          last_error: null,
          update_time: now,
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      await db
        .updateTable('job_schedules')
        .set({
          interval_ms: intervalMs,
          next_run_at: sql`case when next_run_at > cast(${now + intervalMs} as bigint) then cast(${now + intervalMs} as bigint) else next_run_at end`,
          update_time: now,
        })
        .where('name', '=', name)
        .where('interval_ms', '<>', intervalMs)
        .execute();
    },

    async list(names: readonly string[]): Promise<ScheduleRecord[]> {
      if (!names.length) return [];
      const rows = await db.selectFrom('job_schedules').selectAll().where('name', 'in', names).execute();
      return rows.map(normalize);
    },

    /**
     * Takes the schedule for one run, answering the run's id, or null when another process holds it (or, unless
     * `manual`, it is not due or is turned off). One conditional UPDATE: PostgreSQL re-checks its condition on the row
     * a concurrent claim just changed, SQLite runs it under the write lock, so only one process wins. The next run is
     * booked one interval after this start.
     */
    async claim(name: string, owner: string, now: number, leaseMs: number, manual: boolean): Promise<number | null> {
      let update = db
        .updateTable('job_schedules')
        .set({
          claimed_by: owner,
          lease_expire_time: now + leaseMs,
          next_run_at: sql`cast(${now} as bigint) + interval_ms`,
          update_time: now,
        })
        .where('name', '=', name)
        .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('lease_expire_time', '<', now)]));
      if (!manual) update = update.where('enabled', '=', 1).where('next_run_at', '<=', now);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return null;
      // Statements of their own, no transaction around them: a SQLite transaction held across an await would make
      // another connection of the same process wait on the lock synchronously. A crash in between loses a record only.
      const run = await db
        .insertInto('job_schedule_runs')
        .values({ name, owner, manual: manual ? 1 : 0, start_time: now, finish_time: null, error: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(run.id);
    },

    /** Keeps a long run's lease while this process still holds it. */
    async renew(name: string, owner: string, until: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('job_schedules')
        .set({ lease_expire_time: until, update_time: now })
        .where('name', '=', name)
        .where('claimed_by', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Records the end of a run and lets the schedule go (only while this process still holds it). */
    async finish(
      run: { id: number; name: string; owner: string; startTime: number; durationMs: number; error: string | null },
      now: number,
    ): Promise<void> {
      await db
        .updateTable('job_schedule_runs')
        .set({ finish_time: now, error: run.error })
        .where('id', '=', run.id)
        .execute();
      await db
        .updateTable('job_schedules')
        .set({
          claimed_by: null,
          lease_expire_time: null,
          last_run_at: run.startTime,
          last_duration_ms: run.durationMs,
          last_error: run.error,
          update_time: now,
        })
        .where('name', '=', run.name)
        .where('claimed_by', '=', run.owner)
        .execute();
    },

    async setEnabled(name: string, enabled: boolean, now: number): Promise<boolean> {
      const result = await db
        .updateTable('job_schedules')
        .set({ enabled: enabled ? 1 : 0, update_time: now })
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The runs of one schedule, oldest first. */
    async runs(name: string) {
      const rows = await db
        .selectFrom('job_schedule_runs')
        .selectAll()
        .where('name', '=', name)
        .orderBy('start_time')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        ...r,
        id: Number(r.id),
        manual: Number(r.manual),
        start_time: Number(r.start_time),
        finish_time: r.finish_time === null ? null : Number(r.finish_time),
      }));
    },

    async deleteRunsBefore(cutoff: number): Promise<void> {
      await db.deleteFrom('job_schedule_runs').where('start_time', '<', cutoff).execute();
    },
  };
}
export type ScheduleRepository = ReturnType<typeof createScheduleRepository>;

const numberOrNull = (value: number | null) => (value === null ? null : Number(value));

/** Numbers whatever the driver answered (a BIGINT may come as a string or a bigint). */
function normalize(row: ScheduleRecord): ScheduleRecord {
  return {
    ...row,
    interval_ms: Number(row.interval_ms),
    enabled: Number(row.enabled),
    next_run_at: Number(row.next_run_at),
    lease_expire_time: numberOrNull(row.lease_expire_time),
    last_run_at: numberOrNull(row.last_run_at),
    last_duration_ms: numberOrNull(row.last_duration_ms),
  };
}
