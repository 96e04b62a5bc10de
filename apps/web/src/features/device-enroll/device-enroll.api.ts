import { DEVICE_UDID_STORAGE_KEY, ResultCode, deviceEnrollLink, deviceEnrollResult, type DeviceEnrollResult } from '@release/contract';
import { isEnvelope } from '../../api/api-error.ts';
import { zh } from '../../locales/zh-CN.ts';

/** Plain fetches on purpose: the install page and the result page have no session (like install.api.ts). */

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

/** Starts a registration from the install page; the page's token proves the install password. */
export function startInstallEnroll(path: string, versionId: number, token: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json', Accept: 'application/json' };
  if (token) headers['app-version-token'] = token;
  return call('/api/device_enroll/install', { method: 'POST', headers, body: JSON.stringify({ url: path, versionId }) }, (data) => deviceEnrollLink.safeParse(data).data ?? null);
}

export function fetchEnrollResult(id: string, sig: string): Promise<Answer<DeviceEnrollResult>> {
  const query = new URLSearchParams({ id, sig });
  return call(`/api/device_enroll/result?${query.toString()}`, { headers: { Accept: 'application/json' } }, (data) => deviceEnrollResult.safeParse(data).data ?? null);
}

/** This phone's UDID, once it registered itself here. */
export function rememberedUdid(): string | null {
  try {
    return localStorage.getItem(DEVICE_UDID_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function rememberUdid(udid: string): void {
  try {
    localStorage.setItem(DEVICE_UDID_STORAGE_KEY, udid);
  } catch {
    // Private mode: the install page just offers registration again.
  }
}
