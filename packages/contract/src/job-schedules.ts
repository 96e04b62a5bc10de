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

/** 设置 → 后台任务 → 任务队列 (admins): the durable job queue per kind, the same figures as /metrics. */
export const JOB_QUEUE_PATH = '/api/system_setting/job_queue';

export const jobQueueRow = z.object({
  /** The job's kind (messaging.delivery, versions.remove-files, …). */
  kind: z.string(),
  /** Waiting to run (due now or later: a retry waits out its backoff). */
  pending: z.number(),
  /** Taken by a process now. */
  running: z.number(),
  /** Gave up; kept for an admin's retry. */
  failed: z.number(),
  /** How long the oldest due job has waited, in ms; 0 when none is due. */
  oldestPendingAgeMs: z.number(),
});
export type JobQueueRow = z.infer<typeof jobQueueRow>;
