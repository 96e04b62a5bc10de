import { z } from 'zod';

/** 设置 → 后台任务 (admins): the recurring work of the server, taken by one process at a time. */
export const JOB_SCHEDULES_PATH = '/api/system_setting/jobs';

export const jobScheduleRow = z.object({
  /** Stable name (housekeeping, repository-poll, tasks-sync.pull). */
  name: z.string(),
  /** What the page calls it: 定期清理, 仓库轮询, 飞书任务同步. */
  title: z.string(),
  intervalMs: z.number(),
  enabled: z.boolean(),
  /** A process is running it now. */
  running: z.boolean(),
  /** Epoch ms. */
  nextRunAt: z.number(),
  lastRunAt: z.number().nullable(),
  lastDurationMs: z.number().nullable(),
  /** Why the last run failed; null when it succeeded or never ran. */
  lastError: z.string().nullable(),
});
export type JobScheduleRow = z.infer<typeof jobScheduleRow>;

export const jobScheduleName = z.object({ name: z.string().min(1).max(64) });
export const jobScheduleEnabled = z.object({ name: z.string().min(1).max(64), enabled: z.boolean() });

export const JobScheduleMessages = {
  notFound: '没有这个后台任务',
  running: '该任务正在运行，请等它结束后再试',
} as const;
