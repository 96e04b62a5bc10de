import type {
  CurrentUser,
  ForgetPasswordBody,
  LoginBody,
  LoginOptions,
  LoginResult,
  SendPhoneCodeBody,
  sendPhoneCodeResult,
} from '@release/contract';
import { api } from './client.ts';

export type SendPhoneCodeResult = ReturnType<typeof sendPhoneCodeResult.parse>;

export async function fetchLoginOptions(signal?: AbortSignal): Promise<LoginOptions> {
  return (await api.get<LoginOptions>('/api/login_options', undefined, { signal })).data;
}

export async function login(body: LoginBody): Promise<LoginResult> {
  return (await api.post<LoginResult>('/api/user/login', body)).data;
}

export async function sendPhoneCode(body: SendPhoneCodeBody): Promise<SendPhoneCodeResult> {
  return (await api.post<SendPhoneCodeResult>('/api/send_phone_code', body)).data;
}

export async function resetForgottenPassword(body: ForgetPasswordBody): Promise<void> {
  await api.post<unknown>('/api/forget_password', body);
}

/** Ends the session on the server; the caller forgets it locally whatever the answer. */
export async function logout(): Promise<void> {
  await api.post<unknown>('/api/user/logout', undefined, { preventRedirect: true, silent: true });
}

export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  return (await api.get<CurrentUser>('/api/user/me', undefined, { signal })).data;
}
