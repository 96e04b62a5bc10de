import type {
  DeviceExportFormat,
  DeviceImportError,
  DeviceImportResult,
  DevicePlatform,
  DeviceReviewStatus,
  DeviceRow,
  ReviewDeviceBody,
  SaveDeviceBody,
} from '@release/contract';
import { toast } from '../app/feedback.ts';
import { readSession } from '../app/session.store.ts';
import { zh } from '../locales/zh-CN.ts';
import { isApiError, isEnvelope } from './api-error.ts';
import { api, request } from './client.ts';

export interface DeviceListParams {
  pageNo: number;
  pageSize: number;
  keyword: string;
  platform: DevicePlatform | '';
  /** Only devices in this review state (all when absent or empty). */
  reviewStatus?: DeviceReviewStatus | '';
}

export async function fetchDevices(
  params: DeviceListParams,
  signal?: AbortSignal,
): Promise<{ rows: DeviceRow[]; total: number }> {
  const response = await api.get<DeviceRow[], { total?: number }>(
    '/api/udids',
    {
      pageNo: params.pageNo,
      pageSize: params.pageSize,
      keyword: params.keyword || undefined,
      platform: params.platform || undefined,
      reviewStatus: params.reviewStatus || undefined,
    },
    { signal },
  );
  return { rows: response.data, total: response.total ?? response.data.length };
}

export async function saveDevice(body: SaveDeviceBody): Promise<void> {
  await api.post<unknown>('/api/udid', body);
}

/** 确认 or 拒绝 a device (e.g. one an install page visitor registered). */
export async function reviewDevice(body: ReviewDeviceBody): Promise<void> {
  await api.post<unknown>('/api/udid/review', body);
}

export async function deleteDevice(id: number): Promise<void> {
  await api.del<unknown>('/api/udid', { id });
}

export type DeviceImportOutcome = { ok: true; result: DeviceImportResult } | { ok: false; errors: DeviceImportError[] };

/** `/api/udid/import`: a refused file answers the bad lines (the client has toasted the summary). */
export async function importDevices(file: File): Promise<DeviceImportOutcome> {
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    return {
      ok: true,
      result: (await request<DeviceImportResult>('POST', '/api/udid/import', { body: form, timeoutMs: 60_000 })).data,
    };
  } catch (error) {
    const data = isApiError(error)
      ? (error.body?.data as { errors?: DeviceImportError[] } | null | undefined)
      : undefined;
    if (data?.errors) return { ok: false, errors: data.errors };
    throw error;
  }
}

/** `/api/udid/export` answers the file itself (SPEC §8: returned as is), saved through a temporary link. */
export async function downloadDevices(format: DeviceExportFormat): Promise<void> {
  const headers: Record<string, string> = {};
  const { token } = readSession();
  if (token) headers.token = token;
  let response: Response;
  try {
    response = await fetch(`/api/udid/export?format=${format}`, { headers });
  } catch {
    toast.error(zh.common.networkError);
    return;
  }
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    const body: unknown = await response.json().catch(() => null);
    toast.error(isEnvelope(body) && body.msg ? body.msg : zh.common.networkError);
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `devices.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
