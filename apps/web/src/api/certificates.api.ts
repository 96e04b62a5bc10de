import type { CertificateRow, HarmonyCertificateRow } from '@release/contract';
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

export async function fetchHarmonyCertificates(signal?: AbortSignal): Promise<HarmonyCertificateRow[]> {
  return (await api.get<HarmonyCertificateRow[]>('/api/harmony_cert_list', undefined, { signal })).data;
}

/** `/api/harmony_cert_upload`: the .p12 HarmonyOS modules are signed with, and its password. */
export async function uploadHarmonyCertificate(input: { p12: File; password: string }): Promise<HarmonyCertificateRow> {
  const form = new FormData();
  form.append('password', input.password);
  form.append('p12', input.p12, input.p12.name);
  return (await request<HarmonyCertificateRow>('POST', '/api/harmony_cert_upload', { body: form, timeoutMs: 60_000 }))
    .data;
}

export async function deleteHarmonyCertificate(id: number): Promise<void> {
  await api.del<unknown>('/api/harmony_cert', { id });
}
