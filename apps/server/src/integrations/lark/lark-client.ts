import { Readable } from 'node:stream';
import { LARK_LOGIN_SCOPES } from '@release/contract';
import { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { decodeJson } from '../../lib/decode-json.ts';
import { downloadOf, StreamedForm, type LarkDownload } from './lark-files.ts';

/** Where our Lark app lives and how it signs in (config LARK_*). */
export interface LarkConfig {
  appId: string;
  appSecret: string;
  openBaseUrl: string;
  accountsBaseUrl: string;
  passportBaseUrl: string;
}

/** A refusal from Lark: the HTTP status, Lark's numeric code and its message. */
export class LarkApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    /** Rate limits: how long Lark asked us to wait (x-ogw-ratelimit-reset), for a job's next try. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'LarkApiError';
  }
}

/** Contract §H / §E: "too many requests" answers that are worth waiting for (429 + 99991400, Bitable 1254290/1254291). */
export const RATE_LIMIT_CODES = new Set([99991400, 1254290, 1254291, 1000004, 1000005, 11232]);

export interface LarkClientOptions {
  /** How a rate-limited call waits before its retry (tests move the fakes' clocks instead). */
  sleep?: (ms: number) => Promise<void>;
  /** Waits up to this long in place, twice at most; longer waits are left to the caller (a job's backoff). */
  maxInlineWaitMs?: number;
}

export type LarkMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface LarkUserInfo {
  openId: string;
  unionId: string | null;
  name: string;
  avatarUrl: string | null;
  mobile: string | null;
}

const TIMEOUT_MS = 10_000;
const UPLOAD_TIMEOUT_MS = 60_000;
/** Tokens and tickets are renewed this long before Lark says they expire (the SDK uses 180 s too). */
const RENEW_BEFORE_MS = 180_000;
/** Lark's codes for a tenant token that is no longer valid: fetch a new one and try once more. */
const STALE_TOKEN_CODES = new Set([99991663, 99991664, 99991665]);

interface Cached {
  value: string;
  renewAt: number;
}

type Json = Record<string, unknown>;

/**
 * Lark's envelope, the fields every answer is read by: `code` (0 is success), `data` (the call's own fields, read
 * by each call), and the rest as it comes (`msg`, OAuth's flat `access_token`, `error_description`, …).
 */
const envelope = z.looseObject({ code: z.number().optional(), data: z.record(z.string(), z.unknown()).nullish() });
type Envelope = z.output<typeof envelope>;
/** A refusal of a download: the envelope with its code (and `msg`, read by `failure`). */
const refusalEnvelope = z.looseObject({ code: z.number() });

async function readJson(response: Response): Promise<Envelope> {
  const answer = decodeJson(await response.text(), envelope);
  if (!answer.ok) throw new LarkApiError(response.status, -1, `飞书返回了无法解析的内容（HTTP ${response.status}）`);
  return answer.value;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The calls sign-in needs: app tenant token, OAuth code exchange (authen v2, flat envelope), user info and
 * the JS-SDK ticket. Plain fetch against the configured hosts (the node SDK has no method for authen v2 and
 * does not renew a revoked tenant token); every answer is checked for both HTTP status and `code`.
 */
export function createLarkClient(config: LarkConfig, clock: Clock, options: LarkClientOptions = {}) {
  let tenant: Cached | null = null;
  let ticket: Cached | null = null;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxInlineWaitMs = options.maxInlineWaitMs ?? 2_000;

  async function post(url: string, body: unknown, token?: string): Promise<{ status: number; json: Envelope }> {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: response.status, json: await readJson(response) };
  }

  function failure(status: number, json: Json, retryAfterMs: number | null = null): LarkApiError {
    const code = typeof json.code === 'number' ? json.code : -1;
    const message = str(json.msg) ?? str(json.error_description) ?? str(json.error) ?? `HTTP ${status}`;
    return new LarkApiError(status, code, message, retryAfterMs);
  }

  async function tenantToken(): Promise<string> {
    if (tenant && clock.now() < tenant.renewAt) return tenant.value;
    const { status, json } = await post(`${config.openBaseUrl}/open-apis/auth/v3/tenant_access_token/internal`, {
      app_id: config.appId,
      app_secret: config.appSecret,
    });
    const token = str(json.tenant_access_token);
    if (status !== 200 || json.code !== 0 || !token) throw failure(status, json);
    const expireSec = typeof json.expire === 'number' ? json.expire : 7200;
    tenant = { value: token, renewAt: clock.now() + expireSec * 1000 - RENEW_BEFORE_MS };
    return token;
  }

  async function send(
    method: LarkMethod,
    url: string,
    body: unknown,
    token: string,
  ): Promise<{ status: number; json: Envelope; resetMs: number | null }> {
    // A FormData body goes as multipart/form-data with its own boundary; a StreamedForm (a file from the store) is
    // streamed with its exact length, opened anew for each try.
    const form = body instanceof FormData || body instanceof StreamedForm;
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body instanceof StreamedForm)
      Object.assign(headers, { 'content-type': body.contentType, 'content-length': String(body.length) });
    else if (body !== undefined && !form) headers['content-type'] = 'application/json; charset=utf-8';
    const payload =
      body === undefined
        ? undefined
        : body instanceof StreamedForm
          ? await body.open()
          : body instanceof FormData
            ? body
            : JSON.stringify(body);
    const response = await fetch(url, {
      method,
      headers,
      body: payload as RequestInit['body'],
      ...(body instanceof StreamedForm ? { duplex: 'half' } : {}),
      signal: AbortSignal.timeout(form ? UPLOAD_TIMEOUT_MS : TIMEOUT_MS),
    } as RequestInit);
    const reset = Number(response.headers.get('x-ogw-ratelimit-reset'));
    return {
      status: response.status,
      json: await readJson(response),
      resetMs: Number.isFinite(reset) && reset > 0 ? reset * 1000 : null,
    };
  }

  /**
   * An Open Platform call with the tenant token; `data` of the envelope. Renews a stale token once; on a rate
   * limit waits the `x-ogw-ratelimit-reset` Lark names (1 s when none) in place while that is short, else throws
   * a LarkApiError carrying the wait for the caller's backoff.
   */
  async function request(
    method: LarkMethod,
    path: string,
    input: {
      query?: Record<string, string | number | boolean | undefined>;
      body?: unknown;
      waitInPlace?: boolean;
    } = {},
  ): Promise<Json> {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(input.query ?? {}))
      if (value !== undefined) query.set(key, String(value));
    const url = `${config.openBaseUrl}${path}${query.size ? `${path.includes('?') ? '&' : '?'}${query}` : ''}`;
    let renewed = false;
    let waits = 0;
    for (;;) {
      const { status, json, resetMs } = await send(method, url, input.body, await tenantToken());
      if (status === 200 && json.code === 0) return json.data ?? {};
      const code = typeof json.code === 'number' ? json.code : -1;
      if (!renewed && STALE_TOKEN_CODES.has(code)) {
        renewed = true;
        tenant = null;
        continue;
      }
      if (status === 429 || RATE_LIMIT_CODES.has(code)) {
        const waitMs = resetMs ?? 1_000;
        if (input.waitInPlace !== false && waits < 2 && waitMs <= maxInlineWaitMs) {
          waits += 1;
          await sleep(waitMs);
          continue;
        }
        throw failure(status, json, waitMs);
      }
      throw failure(status, json);
    }
  }

  /**
   * A file's bytes as a stream (GET, tenant token), e.g. drive media downloads; the caller caps and stores them. A stale
   * token is renewed once; Lark's refusals (a JSON envelope with a non-zero code, also on HTTP 200) are thrown as
   * LarkApiError.
   */
  async function requestStream(path: string): Promise<LarkDownload> {
    for (let renewed = false; ; renewed = true) {
      const response = await fetch(`${config.openBaseUrl}${path}`, {
        headers: { authorization: `Bearer ${await tenantToken()}` },
        signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
      });
      // Only a JSON answer is read here (Lark's envelope is small); a file's bytes are left to the caller's stream.
      const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
      if (response.ok && !isJson) return downloadOf(response);
      const text = await response.text();
      // A refusal is an envelope with a non-zero code; any other JSON is the file itself (a .json attachment).
      const answer = isJson ? decodeJson(text, refusalEnvelope) : null;
      const json = answer?.ok && answer.value.code !== 0 ? answer.value : null;
      if (response.ok && !json) return { body: Readable.from([Buffer.from(text)]), size: Buffer.byteLength(text) };
      const refusal = json ?? { code: -1, msg: `HTTP ${response.status}` };
      if (!renewed && STALE_TOKEN_CODES.has(refusal.code)) {
        tenant = null;
        continue;
      }
      const reset = Number(response.headers.get('x-ogw-ratelimit-reset'));
      throw failure(response.status, refusal, Number.isFinite(reset) && reset > 0 ? reset * 1000 : null);
    }
  }

  /** POST with the tenant token (see `request`); a rate limit is thrown at once (message jobs back off themselves). */
  function withTenant(path: string, body: unknown): Promise<Json> {
    return request('POST', path, { body, waitInPlace: false });
  }

  return {
    config,

    /** The browser authorize page (accounts host); `redirectUri` must be on the app's whitelist. */
    authorizeUrl(redirectUri: string, state: string): string {
      const query = new URLSearchParams({
        client_id: config.appId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: LARK_LOGIN_SCOPES.join(' '),
        state,
      });
      return `${config.accountsBaseUrl}/open-apis/authen/v1/authorize?${query}`;
    },

    /** A user access token for a login code (single use, 5 minutes). No redirect URI for JS-SDK codes. */
    async exchangeCode(code: string, redirectUri?: string): Promise<string> {
      const body: Json = {
        grant_type: 'authorization_code',
        client_id: config.appId,
        client_secret: config.appSecret,
        code,
      };
      if (redirectUri) body.redirect_uri = redirectUri;
      const { status, json } = await post(`${config.openBaseUrl}/open-apis/authen/v2/oauth/token`, body);
      const token = str(json.access_token);
      if (status !== 200 || json.code !== 0 || !token) throw failure(status, json);
      return token;
    },

    async userInfo(userToken: string): Promise<LarkUserInfo> {
      const response = await fetch(`${config.openBaseUrl}/open-apis/authen/v1/user_info`, {
        headers: { authorization: `Bearer ${userToken}` },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const json = await readJson(response);
      const data = json.data ?? {};
      const openId = str(data.open_id);
      if (response.status !== 200 || json.code !== 0 || !openId) throw failure(response.status, json);
      return {
        openId,
        unionId: str(data.union_id),
        name: str(data.name) ?? openId,
        avatarUrl: str(data.avatar_url),
        mobile: str(data.mobile),
      };
    },

    /** The JS-SDK ticket, cached server-wide (Lark limits how often it may be fetched). */
    async jsapiTicket(): Promise<string> {
      if (ticket && clock.now() < ticket.renewAt) return ticket.value;
      const data = await withTenant('/open-apis/jssdk/ticket/get', {});
      const value = str(data.ticket);
      if (!value) throw new LarkApiError(200, -1, '飞书未返回 jsapi_ticket');
      const expireSec = typeof data.expire_in === 'number' ? data.expire_in : 7200;
      ticket = { value, renewAt: clock.now() + expireSec * 1000 - RENEW_BEFORE_MS };
      return value;
    },

    tenantToken,
    withTenant,
    request,
    requestStream,
  };
}
export type LarkClient = ReturnType<typeof createLarkClient>;
