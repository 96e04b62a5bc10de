import { LARK_LOGIN_SCOPES, SignInKind } from '@release/contract';
import { fetchJsapiConfig, fetchLarkLoginUrl, fetchWecomLoginUrl, type LarkLoginMode } from '../../api/sso.api.ts';

/** Router state of /login when a Lark sign-in came back unfinished: the reason, shown above the form. */
export interface LoginPageState {
  signInError?: string;
}

/** The state this tab sent to Lark / WeCom; the callback accepts only that one (login CSRF, with the server's cookie). */
const STATE_KEY = 'signInState';

export function rememberState(state: string): void {
  sessionStorage.setItem(STATE_KEY, state);
}

/** True once for the state this tab started; a forged or replayed callback is refused. */
export function takeOwnState(state: string): boolean {
  const own = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  return own !== null && own === state;
}

/** The kind of a returned state (`success_login.…`, `terminal_login.<port>.…`, …) and the CLI port it may carry. */
export function parseState(state: string): { kind: string; port: number | null } {
  const [kind = '', second = ''] = state.split('.');
  const port = kind === SignInKind.terminal && /^\d{4,5}$/.test(second) ? Number(second) : null;
  return { kind, port };
}

/** Leaves for Lark's authorize page; the browser comes back to /callback/feishu. */
export async function goToLark(mode: LarkLoginMode): Promise<void> {
  const { url, state } = await fetchLarkLoginUrl(mode);
  rememberState(state);
  window.location.assign(url);
}

export async function goToWecom(): Promise<void> {
  const { url, state } = await fetchWecomLoginUrl();
  rememberState(state);
  window.location.assign(url);
}

/** The bits of the Lark client's JS bridge (window.h5sdk, window.tt) that silent login uses. */
interface LarkBridge {
  h5sdk?: { ready(callback: () => void): void; config?(options: Record<string, unknown>): void };
  tt?: {
    requestAccess?(options: {
      appID: string;
      scopeList: string[];
      state?: string;
      success(result: { code: string }): void;
      fail(error: { errno?: number; errMsg?: string }): void;
    }): void;
    requestAuthCode?(options: {
      appId: string;
      success(result: { code: string }): void;
      fail(error: { errMsg?: string }): void;
    }): void;
  };
}

export function larkBridge(): LarkBridge | null {
  const bridge = window as unknown as LarkBridge;
  return bridge.h5sdk && bridge.tt ? bridge : null;
}

/**
 * Inside the Lark client: a login code from the JS bridge, without leaving the page. requestAccess first
 * (client 6.9+); errno 103 or a client without it falls back to requestAuthCode. Null when refused.
 */
export async function silentLarkCode(appId: string): Promise<string | null> {
  const bridge = larkBridge();
  if (!bridge?.h5sdk || !bridge.tt) return null;
  const { h5sdk, tt } = bridge;
  // The page signature lets the bridge trust this page (older clients need it for the auth calls).
  const config = await fetchJsapiConfig(window.location.href.split('#')[0] ?? window.location.href).catch(() => null);
  if (config && h5sdk.config)
    h5sdk.config({
      appId: config.appId,
      timestamp: config.timestamp,
      nonceStr: config.nonceStr,
      signature: config.signature,
      jsApiList: ['requestAccess', 'requestAuthCode'],
    });
  await new Promise<void>((resolve) => h5sdk.ready(resolve));
  const legacy = () =>
    new Promise<string | null>((resolve) => {
      if (!tt.requestAuthCode) return resolve(null);
      tt.requestAuthCode({ appId, success: (result) => resolve(result.code), fail: () => resolve(null) });
    });
  if (!tt.requestAccess) return legacy();
  return new Promise<string | null>((resolve) => {
    tt.requestAccess?.({
      appID: appId,
      scopeList: [...LARK_LOGIN_SCOPES],
      success: (result) => resolve(result.code),
      fail: (error) => (error.errno === 103 ? void legacy().then(resolve) : resolve(null)),
    });
  });
}
