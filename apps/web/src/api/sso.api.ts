import type { JsapiConfig, LarkLoginBody, LoginResult, SignInUrl, UserIdentity } from '@release/contract';
import { api } from './client.ts';

export type LarkLoginMode = 'success_login' | 'terminal_login' | 'bind_login';

export interface QrLogin {
  qrId: string;
  url: string | null;
  expiresAt: number | null;
  status: 'pending' | 'done' | 'denied' | 'expired';
  login: LoginResult | null;
}

export async function fetchLarkLoginUrl(mode: LarkLoginMode): Promise<SignInUrl> {
  return (await api.get<SignInUrl>('/api/user/lark_login_url', { mode }, { silent: true })).data;
}

export async function larkLogin(body: LarkLoginBody): Promise<LoginResult> {
  return (await api.post<LoginResult>('/api/user/lark_login', body)).data;
}

/** Tells the server a sign-in was declined at Lark / WeCom, so its state cannot be used any more. */
export async function reportSignInDenied(state: string, error: string): Promise<void> {
  await api.post<unknown>('/api/user/sign_in_denied', { state, error }, { silent: true, preventRedirect: true });
}

export async function startQrLogin(): Promise<QrLogin> {
  return (await api.get<QrLogin>('/api/user/lark_qr_login', undefined, { silent: true })).data;
}

export async function pollQrLogin(qrId: string, signal?: AbortSignal): Promise<QrLogin> {
  return (await api.get<QrLogin>('/api/user/lark_qr_login', { qrId }, { signal, silent: true })).data;
}

export async function confirmQrLogin(body: {
  state: string;
  code?: string;
  error?: string;
}): Promise<{ status: QrLogin['status'] }> {
  return (await api.post<{ status: QrLogin['status'] }>('/api/user/lark_qr_login', body)).data;
}

export async function fetchJsapiConfig(url: string): Promise<JsapiConfig> {
  return (await api.get<JsapiConfig>('/api/user/lark_jsapi_config', { url }, { silent: true })).data;
}

export async function fetchWecomLoginUrl(): Promise<SignInUrl> {
  return (await api.get<SignInUrl>('/api/user/wecom_login_url', undefined, { silent: true })).data;
}

export async function wecomLogin(body: { code: string; state: string }): Promise<LoginResult> {
  return (await api.post<LoginResult>('/api/qywx_login', body)).data;
}

export async function fetchIdentities(signal?: AbortSignal): Promise<UserIdentity[]> {
  return (await api.get<UserIdentity[]>('/api/user/identities', undefined, { signal })).data;
}

export async function unbindIdentity(provider: 'lark' | 'wecom'): Promise<void> {
  await api.del<unknown>('/api/user/identity', { provider });
}
