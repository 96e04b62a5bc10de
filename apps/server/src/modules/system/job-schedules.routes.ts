import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JOB_SCHEDULES_PATH, jobScheduleEnabled, JobScheduleMessages, jobScheduleName, jobScheduleRow, type JobScheduleRow } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { Scheduler, ScheduleState } from '../../jobs/scheduler.ts';

function rowOf(state: ScheduleState): JobScheduleRow {
  const r = state.record;
  return {
    name: state.definition.name,
    title: state.definition.title,
    intervalMs: state.definition.intervalMs,
    enabled: r.enabled === 1,
    running: state.running,
    nextRunAt: r.next_run_at,
    lastRunAt: r.last_run_at,
    lastDurationMs: r.last_duration_ms,
    lastError: r.last_error,
  };
}

/** 设置 → 后台任务 (admins): each schedule's last and next run, its last error; run one now, turn one off or on. */
export function jobSchedulesRoutes(scheduler: Scheduler): FastifyPluginAsyncZod {
  return async (app) => {
    const list = async () => (await scheduler.list()).map(rowOf);
    const response = { 200: envelopeSchema(z.array(jobScheduleRow)) };
    const tags = ['system'];
    app.get(JOB_SCHEDULES_PATH, { config: { access: 'admin' }, schema: { tags, response } }, async () => ok(await list()));
    app.post(`${JOB_SCHEDULES_PATH}/run`, { config: { access: 'admin' }, schema: { tags, description: 'Runs a schedule once now, unless a process is running it.', body: jobScheduleName, response } }, async (req) => {
      if (!(await scheduler.list()).some((s) => s.definition.name === req.body.name)) throw AppError.notFound(JobScheduleMessages.notFound);
      // A second click while the first run goes on finds the schedule taken: one run, and the reason on screen.
      if (!(await scheduler.runNow(req.body.name))) throw AppError.badRequest(JobScheduleMessages.running);
      return ok(await list());
    });
    app.post(`${JOB_SCHEDULES_PATH}/enabled`, { config: { access: 'admin' }, schema: { tags, body: jobScheduleEnabled, response } }, async (req) => {
      if (!(await scheduler.setEnabled(req.body.name, req.body.enabled))) throw AppError.notFound(JobScheduleMessages.notFound);
      return ok(await list());
    });
  };
}
