import { DEFAULT_REQUEST_TIMEOUT_MS, EXPIRED_LOGOUT_DELAY_MS, ResultCode, RoutePath } from '@release/contract';
import { toast } from '../app/feedback.ts';
import { LOGIN_AUTO_PATH, rememberRedirect } from '../app/redirect.ts';
import { clearSession, readSession } from '../app/session.store.ts';
import { zh } from '../locales/zh-CN.ts';
import { ApiError, isEnvelope, type ApiEnvelope } from './api-error.ts';

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue>;

/** The envelope plus whatever the call adds beside data (total, extraInfo...). */
export type ApiResponse<T, Extra extends object = object> = ApiEnvelope<T> & Extra;

export interface RequestOptions {
  query?: QueryParams;
  body?: unknown;
  /** Default 15 s (SPEC §9). */
  timeoutMs?: number;
  /** Aborting it rejects silently with kind "canceled". */
  signal?: AbortSignal;
  /** On an expired token, do not toast, clear the session or go to login: the caller decides. */
  preventRedirect?: boolean;
  /** No error toast for business or network failures (SPEC §8 silent calls). */
  silent?: boolean;
}

interface ApiHooks {
  navigate: (to: string) => void;
  currentPath: () => string;
  onSessionExpired: () => void;
}

let hooks: ApiHooks = {
  navigate: (to) => window.location.assign(to),
  currentPath: () => window.location.pathname + window.location.search,
  onSessionExpired: () => undefined,
};
let expiryPending = false;

/** Wires navigation (the router) and cache clearing into the client, once at start. */
export function configureApi(overrides: Partial<ApiHooks>): void {
  hooks = { ...hooks, ...overrides };
}

function buildUrl(path: string, query: QueryParams | undefined): string {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

function handleExpired(options: RequestOptions): void {
  if (options.preventRedirect || expiryPending) return;
  expiryPending = true;
  toast.warning(zh.session.expiredRedirecting);
  rememberRedirect(hooks.currentPath());
  window.setTimeout(() => {
    expiryPending = false;
    // Leave first, then forget the session, so protected pages never render without one.
    hooks.navigate(LOGIN_AUTO_PATH);
    clearSession();
    hooks.onSessionExpired();
  }, EXPIRED_LOGOUT_DELAY_MS);
}

function settleEnvelope<T, Extra extends object>(
  body: ApiEnvelope<unknown>,
  options: RequestOptions,
): ApiResponse<T, Extra> {
  const msg = body.msg ?? '';
  if (body.code === ResultCode.ok) return body as ApiResponse<T, Extra>;
  if (body.code === ResultCode.unauthorized && msg.includes('token')) {
    handleExpired(options);
    throw new ApiError('expired', msg, body.code, body);
  }
  if (body.code === ResultCode.noPermission) {
    hooks.navigate(RoutePath.forbidden);
    throw new ApiError('forbidden', msg, body.code, body);
  }
  if (body.code === ResultCode.notModified) throw new ApiError('not-modified', msg, body.code, body);
  if (!options.silent) toast.error(msg || zh.common.networkError);
  throw new ApiError('business', msg, body.code, body);
}

function transportFailure(options: RequestOptions, timedOut: boolean): ApiError {
  if (!timedOut && options.signal?.aborted) return new ApiError('canceled', 'canceled');
  if (!options.silent) toast.error(zh.common.networkError);
  return new ApiError(timedOut ? 'timeout' : 'network', zh.common.networkError);
}

/**
 * What a call made outside `request` (an XMLHttpRequest, for its upload progress) answered, through the same envelope
 * and error-code handling; `payload` undefined: no answer (network), `timedOut`: the call's own timeout.
 */
export function settleAnswer<T>(payload: unknown, options: RequestOptions, timedOut = false): ApiResponse<T> {
  if (!isEnvelope(payload)) throw transportFailure(options, timedOut);
  return settleEnvelope<T, object>(payload, options);
}

/** The session's token header, for calls made outside `request`. */
export function tokenHeader(): Record<string, string> {
  const { token } = readSession();
  return token ? { token } : {};
}

/** One call to the API: token header, timeout, envelope and error-code handling of SPEC §8. */
export async function request<T, Extra extends object = object>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T, Extra>> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = window.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const abortFromCaller = (): void => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', abortFromCaller, { once: true });

  const headers: Record<string, string> = { Accept: 'application/json' };
  const { token } = readSession();
  if (token) headers.token = token;
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) {
    // The browser sets the multipart boundary itself.
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let payload: unknown;
  try {
    const response = await fetch(buildUrl(path, options.query), { method, headers, body, signal: controller.signal });
    payload = await response.json();
  } catch {
    throw transportFailure(options, timedOut);
  } finally {
    window.clearTimeout(timer);
    options.signal?.removeEventListener('abort', abortFromCaller);
  }
  if (!isEnvelope(payload)) throw transportFailure(options, false);
  return settleEnvelope<T, Extra>(payload, options);
}

export const api = {
  get: <T, Extra extends object = object>(path: string, query?: QueryParams, options: RequestOptions = {}) =>
    request<T, Extra>('GET', path, { ...options, query }),
  post: <T, Extra extends object = object>(path: string, body?: unknown, options: RequestOptions = {}) =>
    request<T, Extra>('POST', path, { ...options, body }),
  del: <T, Extra extends object = object>(path: string, query?: QueryParams, options: RequestOptions = {}) =>
    request<T, Extra>('DELETE', path, { ...options, query }),
  /** Multipart POST: each entry becomes a form field. */
  upload: <T>(path: string, fields: Record<string, string | Blob>, options: RequestOptions = {}) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return request<T>('POST', path, { ...options, body: form });
  },
};
