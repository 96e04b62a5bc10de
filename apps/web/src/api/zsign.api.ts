import { ZSIGN_TIMEOUT_MS, type ZsignBody, type ZsignCertificate, type ZsignJob } from '@release/contract';
import { api } from './client.ts';

/** GET /api/zsign/certs: the certificates an editor may re-sign with. */
export async function fetchResignCertificates(signal?: AbortSignal): Promise<ZsignCertificate[]> {
  return (await api.get<ZsignCertificate[]>('/api/zsign/certs', undefined, { signal })).data;
}

/** POST /api/zsign (SPEC §7, 60 s): done with the new version, failed, or the job to poll. Errors are shown by the modal. */
export async function startResign(body: ZsignBody): Promise<ZsignJob> {
  return (await api.post<ZsignJob>('/api/zsign', body, { timeoutMs: ZSIGN_TIMEOUT_MS, silent: true })).data;
}

/** GET /api/zsign/job: status and progress of a re-signing. */
export async function fetchResignJob(id: number, signal?: AbortSignal): Promise<ZsignJob> {
  return (await api.get<ZsignJob>('/api/zsign/job', { id }, { signal, silent: true })).data;
}
