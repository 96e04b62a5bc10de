import { api } from './client.ts';

export interface CertificateInfo {
  subject: string;
  issuer: string;
  /** Epoch ms. */
  validTo: number;
  daysLeft: number;
  trusted: boolean;
  trustError: string | null;
}

/** GET /api/system/public_url_check (admins): how the configured PUBLIC_URL looks from the server. */
export interface PublicUrlReport {
  publicUrl: string | null;
  https: boolean;
  reachable: boolean;
  /** The URL answered as this deployment, not another site behind a misrouted proxy. */
  sameDeployment: boolean;
  certificate: CertificateInfo | null;
  problems: string[];
}

/** The server may spend 5 s on TLS and 5 s on the ping: allow more than the default 15 s. */
const CHECK_TIMEOUT_MS = 30_000;

export async function fetchPublicUrlCheck(signal?: AbortSignal): Promise<PublicUrlReport> {
  return (await api.get<PublicUrlReport>('/api/system/public_url_check', undefined, { signal, timeoutMs: CHECK_TIMEOUT_MS })).data;
}
