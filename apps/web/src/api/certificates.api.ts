import type { CertificateRow } from '@release/contract';
import { api, request } from './client.ts';

export async function fetchCertificates(signal?: AbortSignal): Promise<CertificateRow[]> {
  return (await api.get<CertificateRow[]>('/api/cert_list', undefined, { signal })).data;
}

export interface CertificateUploadInput {
  p12: File;
  password: string;
  profiles: File[];
}

/** `/api/cert_upload`: one .p12, its password and every profile in one multipart form. */
export async function uploadCertificate(input: CertificateUploadInput): Promise<CertificateRow> {
  const form = new FormData();
  form.append('password', input.password);
  form.append('p12', input.p12, input.p12.name);
  for (const profile of input.profiles) form.append('profiles', profile, profile.name);
  return (await request<CertificateRow>('POST', '/api/cert_upload', { body: form, timeoutMs: 60_000 })).data;
}

export async function deleteCertificate(id: number): Promise<void> {
  await api.del<unknown>('/api/cert', { id });
}
