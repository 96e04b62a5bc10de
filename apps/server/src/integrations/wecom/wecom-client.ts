import type { Clock } from '../../lib/clock.ts';

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

type Json = Record<string, unknown>;

async function getJson(url: string): Promise<Json> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const text = await response.text();
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new WecomApiError(-1, `企业微信返回了无法解析的内容（HTTP ${response.status}）`);
  }
}

/** gettoken (cached per app), auth/getuserinfo and user/get: what WeCom sign-in needs. */
export function createWecomClient(config: WecomConfig, clock: Clock) {
  let token: { value: string; renewAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && clock.now() < token.renewAt) return token.value;
    const query = new URLSearchParams({ corpid: config.corpId, corpsecret: config.secret });
    const json = await getJson(`${config.baseUrl}/cgi-bin/gettoken?${query}`);
    if (json.errcode !== 0 || typeof json.access_token !== 'string')
      throw new WecomApiError(Number(json.errcode ?? -1), String(json.errmsg ?? 'gettoken failed'));
    const expiresSec = typeof json.expires_in === 'number' ? json.expires_in : 7200;
    token = { value: json.access_token, renewAt: clock.now() + expiresSec * 1000 - RENEW_BEFORE_MS };
    return token.value;
  }

  async function call(path: string, params: Record<string, string>): Promise<Json> {
    for (let attempt = 0; ; attempt += 1) {
      const query = new URLSearchParams({ access_token: await accessToken(), ...params });
      const json = await getJson(`${config.baseUrl}${path}?${query}`);
      if (json.errcode === 0) return json;
      const errcode = Number(json.errcode ?? -1);
      if (attempt === 0 && STALE_TOKEN_CODES.has(errcode)) {
        token = null;
        continue;
      }
      throw new WecomApiError(errcode, String(json.errmsg ?? 'WeCom call failed'));
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
      const info = await call('/cgi-bin/auth/getuserinfo', { code });
      const userId =
        typeof info.userid === 'string' ? info.userid : typeof info.UserId === 'string' ? info.UserId : null;
      if (!userId) throw new WecomApiError(0, '该企业微信账号不是本企业成员');
      const user = await call('/cgi-bin/user/get', { userid: userId });
      return { userId, name: typeof user.name === 'string' && user.name ? user.name : userId };
    },
  };
}
export type WecomClient = ReturnType<typeof createWecomClient>;
