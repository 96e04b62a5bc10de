import type { FakeResponse } from '../shared/http-server.ts';

/** `{code:0,msg:"success",data}` with HTTP 200. */
export function ok(data: unknown = {}, msg = 'success'): FakeResponse {
  return { status: 200, body: { code: 0, msg, data } };
}

/** `{code,msg,error?}` with the HTTP status the contract gives for that code. */
export function fail(status: number, code: number, msg: string, extra: Record<string, unknown> = {}): FakeResponse {
  return { status, body: { code, msg, ...extra } };
}

/** Bare error `{code,msg,data:{}}` as the custom bot answers it (HTTP 200). */
export function botFail(code: number, msg: string): FakeResponse {
  return { status: 200, body: { code, data: {}, msg } };
}

/** authen/v2/oauth/token errors are flat, RFC 6749 style. */
export function oauthFail(code: number, error: string, description: string): FakeResponse {
  const status = code === 20050 ? 500 : code === 20072 ? 503 : 400;
  return { status, body: { code, error, error_description: description } };
}

export function readPageSize(raw: string | null, max: number, fallback: number): number | null {
  if (raw === null || raw === '') return fallback;
  const size = Number(raw);
  return Number.isInteger(size) && size > 0 && size <= max ? size : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
