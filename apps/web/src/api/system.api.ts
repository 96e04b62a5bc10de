import {
  JOB_QUEUE_PATH,
  JOB_SCHEDULES_PATH,
  type JobQueueRow,
  type JobScheduleRow,
  type PublicUrlReport,
} from '@release/contract';
import { api } from './client.ts';

export type { CertificateInfo, PublicUrlReport } from '@release/contract';

/** The server may spend 5 s on TLS and 5 s on the ping: allow more than the default 15 s. */
const CHECK_TIMEOUT_MS = 30_000;

export async function fetchPublicUrlCheck(signal?: AbortSignal): Promise<PublicUrlReport> {
  return (
    await api.get<PublicUrlReport>('/api/system/public_url_check', undefined, { signal, timeoutMs: CHECK_TIMEOUT_MS })
  ).data;
}

/** 设置 → 后台任务 (admins): the server's schedules. */
export async function fetchJobSchedules(signal?: AbortSignal): Promise<JobScheduleRow[]> {
  return (await api.get<JobScheduleRow[]>(JOB_SCHEDULES_PATH, undefined, { signal })).data;
}

/** 立即运行: answers the list with the run started (refused with the reason while it runs). */
export async function runJobScheduleNow(name: string): Promise<JobScheduleRow[]> {
  return (await api.post<JobScheduleRow[]>(`${JOB_SCHEDULES_PATH}/run`, { name })).data;
}

export async function setJobScheduleEnabled(body: { name: string; enabled: boolean }): Promise<JobScheduleRow[]> {
  return (await api.post<JobScheduleRow[]>(`${JOB_SCHEDULES_PATH}/enabled`, body)).data;
}

/** 设置 → 后台任务 → 任务队列 (admins): jobs waiting, running and failed per kind. */
export async function fetchJobQueue(signal?: AbortSignal): Promise<JobQueueRow[]> {
  return (await api.get<JobQueueRow[]>(JOB_QUEUE_PATH, undefined, { signal })).data;
}
