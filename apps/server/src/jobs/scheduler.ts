import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';
import { createScheduleRepository, type ScheduleRecord } from './schedule.repository.ts';

/** Longer than a run's renewal period by far: a lease that runs out means the process died mid-run. */
export const SCHEDULE_LEASE_MS = 10 * 60_000;
const RENEW_EVERY_MS = SCHEDULE_LEASE_MS / 4;
/** How often an idle process looks again (a schedule turned on, a changed interval, another process's run-now). */
const MAX_IDLE_MS = 5_000;
const MIN_IDLE_MS = 200;
const RUNS_KEPT_MS = 7 * 24 * 60 * 60_000;

/** Recurring work: what runs, under which name and title, how often. */
export interface ScheduleDefinition {
  /** Stable: the row in job_schedules. */
  name: string;
  /** What the admin page (设置 → 后台任务) calls it. */
  title: string;
  intervalMs: number;
  run(): Promise<unknown>;
}

export interface ScheduleState {
  definition: ScheduleDefinition;
  record: ScheduleRecord;
  /** A process holds it under a live lease. */
  running: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Schedules in the database (ARCHITECTURE §8): every process runs this loop, and a due schedule is taken by exactly
 * one of them (the repository's conditional claim) and run here, its lease renewed while it runs. Runs of different
 * schedules overlap; one schedule never runs twice at once.
 */
export function createScheduler(deps: { db: Kysely<Database>; clock: Clock; logger?: Logger; owner?: string }) {
  const { clock } = deps;
  const schedules = createScheduleRepository(deps.db);
  const owner = deps.owner ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
  const definitions = new Map<string, ScheduleDefinition>();
  const inFlight = new Set<Promise<void>>();
  let ensured: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  function ensureAll(): Promise<void> {
    ensured ??= (async () => {
      for (const definition of definitions.values())
        await schedules.ensure(definition.name, definition.intervalMs, clock.now());
    })().catch((error: unknown) => {
      ensured = null;
      throw error;
    });
    return ensured;
  }

  async function execute(definition: ScheduleDefinition, runId: number, startTime: number): Promise<void> {
    const renewal = setInterval(() => {
      schedules
        .renew(definition.name, owner, clock.now() + SCHEDULE_LEASE_MS, clock.now())
        .catch((error: unknown) =>
          deps.logger?.warn({ err: error, schedule: definition.name }, 'renewing a schedule lease failed'),
        );
    }, RENEW_EVERY_MS);
    renewal.unref();
    const started = performance.now();
    let error: string | null = null;
    try {
      await definition.run();
    } catch (failure) {
      error = messageOf(failure);
      deps.logger?.error({ err: failure, schedule: definition.name }, 'a scheduled job failed');
    } finally {
      clearInterval(renewal);
    }
    const durationMs = Math.round(performance.now() - started);
    // Unrecorded, the lease runs out and the next due time runs it again: nothing is lost but the record of this run.
    await schedules
      .finish({ id: runId, name: definition.name, owner, startTime, durationMs, error }, clock.now())
      .catch((failure: unknown) =>
        deps.logger?.error({ err: failure, schedule: definition.name }, 'recording a scheduled run failed'),
      );
  }

  function launch(definition: ScheduleDefinition, runId: number, startTime: number): Promise<void> {
    const run = execute(definition, runId, startTime).finally(() => inFlight.delete(run));
    inFlight.add(run);
    return run;
  }

  /** Takes every due schedule this process defines and starts its run; answers the runs started. */
  async function claimDue(): Promise<Promise<void>[]> {
    await ensureAll();
    const now = clock.now();
    const started: Promise<void>[] = [];
    for (const record of await schedules.list([...definitions.keys()])) {
      if (!record.enabled || record.next_run_at > now) continue;
      if (record.claimed_by !== null && (record.lease_expire_time ?? 0) >= now) continue;
      const definition = definitions.get(record.name);
      const runId = definition ? await schedules.claim(record.name, owner, now, SCHEDULE_LEASE_MS, false) : null;
      if (definition && runId !== null) started.push(launch(definition, runId, now));
    }
    return started;
  }

  /** How long an idle loop sleeps: until the earliest due time of a schedule nobody holds, within bounds. */
  async function idleMs(): Promise<number> {
    const now = clock.now();
    const free = (await schedules.list([...definitions.keys()])).filter(
      (r) => r.enabled && (r.claimed_by === null || (r.lease_expire_time ?? 0) < now),
    );
    const next = Math.min(...free.map((r) => r.next_run_at), now + MAX_IDLE_MS);
    return Math.max(MIN_IDLE_MS, next - now);
  }

  async function tick() {
    timer = null;
    if (!running) return;
    let delay = MAX_IDLE_MS;
    try {
      // The runs go on while the loop sleeps: execute() records each outcome, stop() waits for them (inFlight).
      void Promise.all(await claimDue());
      delay = await idleMs();
    } catch (error) {
      deps.logger?.error({ err: error }, 'the scheduler failed');
    }
    if (running) timer = setTimeout(() => void tick(), delay);
  }

  return {
    owner,
    repository: schedules,

    define(definition: ScheduleDefinition) {
      definitions.set(definition.name, definition);
      ensured = null;
    },

    /** Runs what is due now and waits for it (tests; the loop does not wait). Answers the runs made. */
    async runDue(): Promise<number> {
      const started = await claimDue();
      await Promise.all(started);
      return started.length;
    },

    /** 立即运行: starts one run now unless a process is running it (answers false then); the run goes on after the answer. */
    async runNow(name: string): Promise<boolean> {
      const definition = definitions.get(name);
      if (!definition) return false;
      await ensureAll();
      const now = clock.now();
      const runId = await schedules.claim(name, owner, now, SCHEDULE_LEASE_MS, true);
      if (runId === null) return false;
      void launch(definition, runId, now);
      return true;
    },

    async setEnabled(name: string, enabled: boolean): Promise<boolean> {
      if (!definitions.has(name)) return false;
      await ensureAll();
      return schedules.setEnabled(name, enabled, clock.now());
    },

    /** The schedules this process defines, in the order they were defined, with their rows. */
    async list(): Promise<ScheduleState[]> {
      await ensureAll();
      const now = clock.now();
      const rows = new Map((await schedules.list([...definitions.keys()])).map((r) => [r.name, r]));
      return [...definitions.values()].flatMap((definition) => {
        const record = rows.get(definition.name);
        return record
          ? [{ definition, record, running: record.claimed_by !== null && (record.lease_expire_time ?? 0) >= now }]
          : [];
      });
    },

    /** Waits for the runs this process started (run-now answers before its run ends). */
    async idle(): Promise<void> {
      while (inFlight.size) await Promise.all([...inFlight]);
    },

    start() {
      if (running) return;
      running = true;
      timer = setTimeout(() => void tick(), 0);
    },

    /** Stops the loop and waits for the runs in flight. */
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.all([...inFlight]);
    },

    async purgeRuns() {
      await schedules.deleteRunsBefore(clock.now() - RUNS_KEPT_MS);
    },
  };
}
export type Scheduler = ReturnType<typeof createScheduler>;
