import { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { decodeJson } from '../../lib/decode-json.ts';

/** The WeCom self-built app used for sign-in (config WECOM_*). */
export interface WecomConfig {
  corpId: string;
  agentId: string;
  secret: string;
  baseUrl: string;
  loginBaseUrl: string;
}

/** A refusal from WeCom: its errcode and errmsg (WeCom answers HTTP 200 for errors too). */
export class WecomApiError extends Error {
  constructor(
    readonly errcode: number,
    message: string,
  ) {
    super(message);
    this.name = 'WecomApiError';
  }
}

const TIMEOUT_MS = 10_000;
const RENEW_BEFORE_MS = 300_000;
/** The access token was revoked early (40014 invalid, 42001 expired): fetch a new one, try once more. */
const STALE_TOKEN_CODES = new Set([40014, 42001]);

/** WeCom's envelope: `errcode` (0 is success) and `errmsg`; each call reads its own fields with its own schema. */
const envelope = z.looseObject({ errcode: z.number().optional(), errmsg: z.string().optional() });
const tokenAnswer = z.object({ access_token: z.string(), expires_in: z.number().optional() });
/** A member has `userid` (`UserId` in older answers); a visitor from outside the corp only an `openid`. */
const loginAnswer = z.object({ userid: z.string().optional(), UserId: z.string().optional() });
const userAnswer = z.object({ name: z.string().optional() });

async function getJson(url: string): Promise<z.output<typeof envelope>> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const answer = decodeJson(await response.text(), envelope);
  if (!answer.ok) throw new WecomApiError(-1, `企业微信返回了无法解析的内容（HTTP ${response.status}）`);
  return answer.value;
}

/** The fields a call reads from a successful answer; an answer without them is WeCom's fault, said plainly. */
function fieldsOf<S extends z.ZodType>(json: unknown, schema: S, path: string): z.output<S> {
  const fields = schema.safeParse(json);
  if (!fields.success) throw new WecomApiError(-1, `企业微信返回的内容不完整（${path}）`);
  return fields.data;
}

/** gettoken (cached per app), auth/getuserinfo and user/get: what WeCom sign-in needs. */
export function createWecomClient(config: WecomConfig, clock: Clock) {
  let token: { value: string; renewAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && clock.now() < token.renewAt) return token.value;
    const query = new URLSearchParams({ corpid: config.corpId, corpsecret: config.secret });
    const json = await getJson(`${config.baseUrl}/cgi-bin/gettoken?${query}`);
    if (json.errcode !== 0) throw new WecomApiError(json.errcode ?? -1, json.errmsg ?? 'gettoken failed');
    const answer = fieldsOf(json, tokenAnswer, '/cgi-bin/gettoken');
    token = {
      value: answer.access_token,
      renewAt: clock.now() + (answer.expires_in ?? 7200) * 1000 - RENEW_BEFORE_MS,
    };
    return token.value;
  }

  async function call<S extends z.ZodType>(
    path: string,
    params: Record<string, string>,
    schema: S,
  ): Promise<z.output<S>> {
    for (let attempt = 0; ; attempt += 1) {
      const query = new URLSearchParams({ access_token: await accessToken(), ...params });
      const json = await getJson(`${config.baseUrl}${path}?${query}`);
      if (json.errcode === 0) return fieldsOf(json, schema, path);
      const errcode = json.errcode ?? -1;
      if (attempt === 0 && STALE_TOKEN_CODES.has(errcode)) {
        token = null;
        continue;
      }
      throw new WecomApiError(errcode, json.errmsg ?? 'WeCom call failed');
    }
  }

  return {
    config,

    /** The SSO login page (web login, QR inside it), ending at `redirectUri?code=&state=`. */
    loginUrl(redirectUri: string, state: string): string {
      const query = new URLSearchParams({
        login_type: 'CorpApp',
        appid: config.corpId,
        agentid: config.agentId,
        redirect_uri: redirectUri,
        state,
      });
      return `${config.loginBaseUrl}/wwlogin/sso/login?${query}`;
    },

    /** The member behind a login code; a non-member (openid only) is refused. */
    async member(code: string): Promise<{ userId: string; name: string }> {
      const info = await call('/cgi-bin/auth/getuserinfo', { code }, loginAnswer);
      const userId = info.userid ?? info.UserId ?? null;
      if (!userId) throw new WecomApiError(0, '该企业微信账号不是本企业成员');
      const user = await call('/cgi-bin/user/get', { userid: userId }, userAnswer);
      return { userId, name: user.name || userId };
    },
  };
}
export type WecomClient = ReturnType<typeof createWecomClient>;
