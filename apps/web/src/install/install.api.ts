import type { DeviceEnrollLink, DeviceEnrollResult, InstallPage } from '@release/contract';
import { DEVICE_UDID_STORAGE_KEY, ResultCode } from '@release/contract/install-page';

/**
 * The install page's calls: plain fetches (no console API client, no zod, no toasts). The page token remembers the
 * install password for 7 days; the console's sign-in token, when this browser has one, lets members in directly.
 */

export const NETWORK_ERROR = '网络不太好~';

export type Answer<T> = { ok: true; data: T } | { ok: false; code: number; message: string };

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // Storage refused (private mode): nothing is remembered.
  }
}

function store(key: string, value: string | null): void {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    // Not kept: asked again next time.
  }
}

const tokenKey = (path: string): string => `app-version-token:${path}`;

/** The kept install page pass of this link. */
export const readInstallToken = (path: string): string | null => stored(tokenKey(path));
/** The console's sign-in token (session.store.ts keeps it under `token`). */
export const readSessionToken = (): string | null => stored('token');
/** This phone's UDID, once it registered itself here. */
export const rememberedUdid = (): string | null => stored(DEVICE_UDID_STORAGE_KEY);
/** Whether the console's signed-in user is an admin (for the loopback warning's 设置 link). */
export const isSignedInAdmin = (): boolean => Boolean(readSessionToken()) && stored('roleLevel') === '100';

async function call<T>(url: string, init: RequestInit): Promise<Answer<T>> {
  let body: unknown;
  try {
    const response = await fetch(url, { ...init, credentials: 'same-origin' });
    body = await response.json();
  } catch (error) {
    if (init.signal?.aborted) throw error;
    return { ok: false, code: 0, message: NETWORK_ERROR };
  }
  const envelope = body as { code?: unknown; msg?: unknown; data?: unknown } | null;
  if (!envelope || typeof envelope.code !== 'number') return { ok: false, code: 0, message: NETWORK_ERROR };
  if (envelope.code !== ResultCode.ok)
    return {
      ok: false,
      code: envelope.code,
      message: typeof envelope.msg === 'string' && envelope.msg ? envelope.msg : NETWORK_ERROR,
    };
  return { ok: true, data: envelope.data as T };
}

/** GET /api/app_version: the page, by the password, the kept pass or the visitor's sign-in. */
export async function fetchInstallPage(
  path: string,
  options: { password?: string; id?: number },
  signal?: AbortSignal,
): Promise<Answer<InstallPage>> {
  const query = new URLSearchParams({ url: path });
  if (options.password) query.set('password', options.password);
  if (options.id) query.set('id', String(options.id));
  const udid = rememberedUdid();
  if (udid) query.set('udid', udid);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const pass = readInstallToken(path);
  if (pass && !options.password) headers['app-version-token'] = pass;
  const session = readSessionToken();
  if (session) headers.token = session;
  const answer = await call<InstallPage>(`/api/app_version?${query.toString()}`, { headers, signal });
  if (answer.ok) {
    if (!Array.isArray(answer.data?.versions)) return { ok: false, code: 0, message: NETWORK_ERROR };
    store(tokenKey(path), answer.data.token);
  } else if (pass && answer.code === ResultCode.badRequest) {
    // The kept pass no longer opens the page (expired, or the password changed).
    store(tokenKey(path), null);
  }
  return answer;
}

/** POST /api/device_enroll/install: a one-time link to the profile that sends this iPhone's UDID. */
export function startInstallEnroll(path: string, versionId: number): Promise<Answer<DeviceEnrollLink>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', Accept: 'application/json' };
  const pass = readInstallToken(path);
  if (pass) headers['app-version-token'] = pass;
  return call(`/api/device_enroll/install`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: path, versionId }),
  });
}

/** GET /api/device_enroll/result: what the phone registered (the signed link of the enroll callback's redirect). */
export async function fetchEnrollResult(id: string, sig: string): Promise<Answer<DeviceEnrollResult>> {
  const query = new URLSearchParams({ id, sig });
  const answer = await call<DeviceEnrollResult>(`/api/device_enroll/result?${query.toString()}`, {
    headers: { Accept: 'application/json' },
  });
  if (answer.ok && typeof answer.data?.udid !== 'string') return { ok: false, code: 0, message: NETWORK_ERROR };
  return answer;
}

/** Keeps this phone's UDID, so its install pages know it is registered. */
export const rememberUdid = (udid: string): void => store(DEVICE_UDID_STORAGE_KEY, udid);
