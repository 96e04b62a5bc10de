import { z } from 'zod';

/**
 * Sign-in through Lark (Feishu) and WeCom. The state sent to them is `<kind>.<random>`, `kind` being the
 * spec's login states (success_login, terminal_login) or ours (qr_login, bind_login, wecom_login); a
 * terminal login also carries the CLI's loopback port: `terminal_login.<port>.<random>`.
 */
export const SignInKind = {
  success: 'success_login',
  terminal: 'terminal_login',
  qr: 'qr_login',
  bind: 'bind_login',
  wecom: 'wecom_login',
} as const;
export type SignInKind = (typeof SignInKind)[keyof typeof SignInKind];

/** Where Lark sends every browser back to (it must be on the Lark app's redirect whitelist). */
export const LARK_CALLBACK_PATH = '/callback/feishu';
/**
 * What a Lark sign-in asks the user to grant (authorize page and the JS bridge's requestAccess): identity
 * comes with any code; the mobile, used to find the account an admin prepared with that phone number, only
 * with this scope, which the Lark app must have enabled.
 */
export const LARK_LOGIN_SCOPES = ['contact:user.phone:readonly'] as const;
/** Where WeCom sends the browser back to. */
export const WECOM_CALLBACK_PATH = '/login';

export const larkLoginUrlQuery = z.object({
  mode: z.enum(['success_login', 'terminal_login', 'bind_login']).default('success_login'),
  /** The CLI's loopback listener (terminal_login only). */
  port: z.coerce.number().int().min(1024).max(65535).optional(),
});
export const signInUrl = z.object({ url: z.string(), state: z.string(), expiresAt: z.number() });
export type SignInUrl = z.infer<typeof signInUrl>;

export const larkLoginBody = z.object({
  code: z.string().min(1).max(1024),
  /** Absent for a code the Lark client's JS bridge handed to the page (silent login). */
  state: z.string().max(200).optional(),
  redirectUri: z.string().max(1024).optional(),
  scope: z.string().max(1024).optional(),
});
export type LarkLoginBody = z.infer<typeof larkLoginBody>;

export const signInDeniedBody = z.object({ state: z.string().max(200), error: z.string().max(64) });

export const qrLoginQuery = z.object({ qrId: z.string().max(200).optional() });
export const qrLoginStatus = z.enum(['pending', 'done', 'denied', 'expired']);
export const qrLoginConfirmBody = z.object({
  state: z.string().max(200),
  code: z.string().min(1).max(1024).optional(),
  error: z.string().max(64).optional(),
});

export const jsapiConfigQuery = z.object({ url: z.string().url().max(2048) });
export const jsapiConfig = z.object({
  appId: z.string(),
  timestamp: z.number(),
  nonceStr: z.string(),
  signature: z.string(),
});
export type JsapiConfig = z.infer<typeof jsapiConfig>;

export const wecomLoginBody = z.object({ code: z.string().min(1).max(1024), state: z.string().max(200) });

export const userIdentity = z.object({
  provider: z.enum(['lark', 'wecom']),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  createTime: z.number(),
});
export type UserIdentity = z.infer<typeof userIdentity>;

export const SignInMessages = {
  larkOff: '未配置飞书登录，请联系管理员',
  wecomOff: '未配置企业微信登录，请联系管理员',
  stateInvalid: '登录请求已失效或不是从本页面发起的，请重新登录',
  codeRejected: '飞书授权码无效或已使用，请重新登录',
  larkUserBlocked: '该飞书账号已离职、被冻结或无权使用本应用，请联系管理员',
  larkMisconfigured: '飞书应用配置有误（应用不存在、已停用或密钥错误），请联系管理员',
  wecomCodeRejected: '企业微信授权码无效或已使用，请重新登录',
  denied: '你已取消授权，未能登录',
  identityTaken: '该账号已绑定其他用户',
  lastSignInMethod: '这是该用户唯一的登录方式：请先设置密码或绑定其他账号，再解除绑定',
  providerUnavailable: '暂时无法连接到飞书，请稍后再试',
  wecomUnavailable: '暂时无法连接到企业微信，请稍后再试',
  wecomMisconfigured: '企业微信应用配置有误（企业 ID、应用 ID 或 Secret 错误），请联系管理员',
  notMember: '该企业微信账号不是本企业成员',
  urlNotOurs: '只能为本站页面签名',
  qrConfirmed: '已在电脑上完成登录',
} as const;
