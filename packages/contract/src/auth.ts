import { z } from 'zod';
import { passwordDigest, phoneCode, trimmedName } from './common.ts';

export const loginBody = z.object({
  username: trimmedName,
  password: passwordDigest,
  phoneCode: phoneCode.optional().or(z.literal('').transform(() => undefined)),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResult = z.object({
  userId: z.number(),
  username: z.string(),
  roleLevel: z.number(),
  token: z.string(),
  /** Server time the session started, ms (the session's "token timestamp"). */
  tokenTime: z.number(),
  /** The user's private robot/webhook URL, when one is set. */
  url: z.string().nullable(),
});
export type LoginResult = z.infer<typeof loginResult>;

export const phoneCodeScene = z.enum(['login', 'forget_password']);
export const sendPhoneCodeBody = z.object({ username: trimmedName, scene: phoneCodeScene.default('login') });
export type SendPhoneCodeBody = z.infer<typeof sendPhoneCodeBody>;
export const sendPhoneCodeResult = z.object({ maskedPhone: z.string(), expiresInMs: z.number() });

export const forgetPasswordBody = z.object({
  username: trimmedName,
  phoneCode,
  password: passwordDigest,
});
export type ForgetPasswordBody = z.infer<typeof forgetPasswordBody>;

/** Whether a phone code is asked for at login. `auto`: only for users with a phone, when a real SMS provider is configured. */
export const phoneCodeMode = z.enum(['auto', 'always', 'never']);
export type PhoneCodeMode = z.infer<typeof phoneCodeMode>;

export const loginOptions = z.object({
  larkEnabled: z.boolean(),
  /** The Lark app id, for the Lark client's JS bridge (silent login); null when Lark is off. */
  larkAppId: z.string().nullable(),
  wecomEnabled: z.boolean(),
  phoneCodeMode,
  smsConfigured: z.boolean(),
});
export type LoginOptions = z.infer<typeof loginOptions>;

export const currentUser = z.object({
  userId: z.number(),
  username: z.string(),
  roleLevel: z.number(),
  roleName: z.string(),
  phone: z.string().nullable(),
  tokenTime: z.number(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const systemSettings = z.object({ phoneCodeMode });
export type SystemSettings = z.infer<typeof systemSettings>;
