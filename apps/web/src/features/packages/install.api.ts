import { installAppBrief, installPage, ResultCode, type InstallAppBrief, type InstallPage } from '@release/contract';
import { isEnvelope } from '../../api/api-error.ts';
import { zh } from '../../locales/zh-CN.ts';
import { rememberedUdid } from '../device-enroll/device-enroll.api.ts';

/**
 * GET /api/app_version for the public install page. A plain fetch on purpose: the page has no
 * session, so the API client's token header, login redirect and error toasts do not apply.
 */

export type InstallAnswer = { ok: true; page: InstallPage } | { ok: false; code: number; message: string };

/** The console's sign-in token (session.store.ts keeps it under `token`), without loading the console's store. */
function readSessionToken(): string | null {
  try {
    return localStorage.getItem('token');
  } catch {
    return null;
  }
}

const tokenKey = (path: string): string => `app-version-token:${path}`;

/** The kept install page token of this app (also sent when registering this device). */
export function readInstallToken(path: string): string | null {
  try {
    return localStorage.getItem(tokenKey(path));
  } catch {
    return null; // Storage refused (private mode): the password is asked each time.
  }
}

function writeToken(path: string, token: string | null): void {
  try {
    if (token) localStorage.setItem(tokenKey(path), token);
    else localStorage.removeItem(tokenKey(path));
  } catch {
    // Not kept: the password is asked again next time.
  }
}

export async function fetchInstallPage(path: string, options: { password?: string; id?: number }, signal?: AbortSignal): Promise<InstallAnswer> {
  const query = new URLSearchParams({ url: path });
  if (options.password) query.set('password', options.password);
  if (options.id) query.set('id', String(options.id));
  const token = readInstallToken(path);
  const udid = rememberedUdid();
  if (udid) query.set('udid', udid);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token && !options.password) headers['app-version-token'] = token;
  // Same origin as the console: a signed-in member of the app (or an admin) is let in without the password.
  const session = readSessionToken();
  if (session) headers.token = session;
  let body: unknown;
  try {
    const response = await fetch(`/api/app_version?${query.toString()}`, { headers, signal, credentials: 'same-origin' });
    body = await response.json();
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, code: 0, message: zh.common.networkError };
  }
  if (!isEnvelope(body)) return { ok: false, code: 0, message: zh.common.networkError };
  if (body.code !== ResultCode.ok) {
    // The kept token no longer opens the page (expired, or the password changed).
    if (token && body.code === ResultCode.badRequest) writeToken(path, null);
    return { ok: false, code: body.code, message: body.msg || zh.common.networkError };
  }
  const parsed = installPage.safeParse(body.data);
  if (!parsed.success) return { ok: false, code: 0, message: zh.common.networkError };
  writeToken(path, parsed.data.token);
  return { ok: true, page: parsed.data };
}

/** GET /api/app_version/app: the app's name and icon for the password gate; null when unknown or unreachable. */
export async function fetchInstallAppBrief(path: string, signal?: AbortSignal): Promise<InstallAppBrief | null> {
  try {
    const response = await fetch(`/api/app_version/app?${new URLSearchParams({ url: path }).toString()}`, { headers: { Accept: 'application/json' }, signal });
    const body: unknown = await response.json();
    if (!isEnvelope(body) || body.code !== ResultCode.ok) return null;
    const parsed = installAppBrief.safeParse(body.data);
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // The gate then shows no name; the password still opens the page.
  }
}
