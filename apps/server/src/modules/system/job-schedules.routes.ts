import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  JOB_SCHEDULES_PATH,
  jobScheduleEnabled,
  JobScheduleMessages,
  jobScheduleName,
  jobScheduleRow,
  type JobScheduleRow,
} from '@release/contract';
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
    const tags = ['系统'];
    const who = '管理员（角色等级 100），其他用户 403。';
    app.get(
      JOB_SCHEDULES_PATH,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '后台任务列表',
          description: `${who}返回每个定时任务（定期清理、仓库轮询、飞书任务同步）的上次运行、下次运行、耗时、上次错误和是否正在运行。`,
          response,
        },
      },
      async () => ok(await list()),
    );
    app.post(
      `${JOB_SCHEDULES_PATH}/run`,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '立即运行后台任务',
          description: `${who}立即运行一次（在后台进行，返回时可能仍在运行）；该任务正在运行时拒绝（400，该任务正在运行，请等它结束后再试）；没有这个任务时 404。`,
          body: jobScheduleName,
          response,
        },
      },
      async (req) => {
        if (!(await scheduler.list()).some((s) => s.definition.name === req.body.name))
          throw AppError.notFound(JobScheduleMessages.notFound);
        // A second click while the first run goes on finds the schedule taken: one run, and the reason on screen.
        if (!(await scheduler.runNow(req.body.name))) throw AppError.badRequest(JobScheduleMessages.running);
        return ok(await list());
      },
    );
    app.post(
      `${JOB_SCHEDULES_PATH}/enabled`,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '启用或停用后台任务',
          description: `${who}停用后到期不再运行（立即运行仍可用）；启用后到期即运行。没有这个任务时 404。`,
          body: jobScheduleEnabled,
          response,
        },
      },
      async (req) => {
        if (!(await scheduler.setEnabled(req.body.name, req.body.enabled)))
          throw AppError.notFound(JobScheduleMessages.notFound);
        return ok(await list());
      },
    );
  };
}
