import type { PublicUrlReport } from '@release/contract';
import { api } from './client.ts';

export type { CertificateInfo, PublicUrlReport } from '@release/contract';

/** The server may spend 5 s on TLS and 5 s on the ping: allow more than the default 15 s. */
const CHECK_TIMEOUT_MS = 30_000;

export async function fetchPublicUrlCheck(signal?: AbortSignal): Promise<PublicUrlReport> {
  return (await api.get<PublicUrlReport>('/api/system/public_url_check', undefined, { signal, timeoutMs: CHECK_TIMEOUT_MS })).data;
}
