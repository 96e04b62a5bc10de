import { DEVICE_UDID_STORAGE_KEY, ResultCode, deviceEnrollResult, type DeviceEnrollResult } from '@release/contract';
import { isEnvelope } from '../../api/api-error.ts';
import { zh } from '../../locales/zh-CN.ts';

/** Plain fetches on purpose: the result page has no session (the install page has its own, src/install). */

type Answer<T> = { ok: true; data: T } | { ok: false; message: string };

async function call<T>(url: string, init: RequestInit, parse: (data: unknown) => T | null): Promise<Answer<T>> {
  let body: unknown;
  try {
    const response = await fetch(url, { ...init, credentials: 'same-origin' });
    body = await response.json();
  } catch {
    return { ok: false, message: zh.common.networkError };
  }
  if (!isEnvelope(body)) return { ok: false, message: zh.common.networkError };
  if (body.code !== ResultCode.ok) return { ok: false, message: body.msg || zh.common.networkError };
  const data = parse(body.data);
  return data === null ? { ok: false, message: zh.common.networkError } : { ok: true, data };
}

export function fetchEnrollResult(id: string, sig: string): Promise<Answer<DeviceEnrollResult>> {
  const query = new URLSearchParams({ id, sig });
  return call(`/api/device_enroll/result?${query.toString()}`, { headers: { Accept: 'application/json' } }, (data) => deviceEnrollResult.safeParse(data).data ?? null);
}

export function rememberUdid(udid: string): void {
  try {
    localStorage.setItem(DEVICE_UDID_STORAGE_KEY, udid);
  } catch {
    // Private mode: the install page just offers registration again.
  }
}
