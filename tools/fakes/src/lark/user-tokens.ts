import { randomChars } from '../shared/ids.ts';
import type { LarkContext } from './lark-context.ts';
import type { AuthCode, LarkUser, RefreshToken, UserToken } from './lark-state.ts';

export const CODE_TTL_MS = 5 * 60_000;
export const V2_ACCESS_TTL_S = 7200;
export const V2_REFRESH_TTL_S = 604_800;
export const V1_ACCESS_TTL_S = 7199;
export const V1_REFRESH_TTL_S = 2_591_999;
export const REFRESH_CHAIN_MS = 365 * 24 * 3600_000;
/** After a refresh the previous access token keeps working for about a minute. */
export const OLD_ACCESS_GRACE_MS = 60_000;

export interface MintCodeInput {
  openId: string;
  appId: string;
  /** null (default) = in-client silent login: the exchange sends no redirect_uri. */
  redirectUri?: string | null;
  scopes?: string[];
  codeChallenge?: string;
  codeChallengeMethod?: 'S256' | 'plain';
  /** Code lifetime (default 5 minutes; requestAccess codes live 3). */
  ttlMs?: number;
}

export function mintCode(ctx: LarkContext, input: MintCodeInput): AuthCode {
  const code: AuthCode = {
    code: randomChars(64, true),
    appId: input.appId,
    openId: input.openId,
    redirectUri: input.redirectUri ?? null,
    scopes: input.scopes ?? [],
    codeChallenge: input.codeChallenge,
    codeChallengeMethod: input.codeChallenge ? (input.codeChallengeMethod ?? 'plain') : undefined,
    expiresAt: ctx.clock.now() + (input.ttlMs ?? CODE_TTL_MS),
    used: false,
  };
  ctx.state.codes.set(code.code, code);
  return code;
}

/** A JWT-shaped opaque token (`eyJ…`, about 1.2 KB) like the v2 user and refresh tokens. */
function jwtLike(kind: string, openId: string, now: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = part({ alg: 'ES256', typ: 'JWT', kid: 'fake' });
  const payload = part({
    typ: kind,
    sub: openId,
    iat: Math.floor(now / 1000),
    jti: randomChars(24),
    pad: randomChars(700),
  });
  return `${header}.${payload}.${randomChars(86, true)}`;
}

export interface IssuedUserTokens {
  access: UserToken;
  refresh?: RefreshToken;
}

/** Issues an access token and, when `withRefresh`, a refresh token whose chain ends at grantAt + 365 days. */
export function issueUserTokens(
  ctx: LarkContext,
  input: { kind: 'v1' | 'v2'; appId: string; user: LarkUser; scopes: string[]; withRefresh: boolean; grantAt?: number },
): IssuedUserTokens {
  const now = ctx.clock.now();
  const v2 = input.kind === 'v2';
  const access: UserToken = {
    token: v2 ? jwtLike('access', input.user.openId, now) : `u-${randomChars(40)}`,
    kind: input.kind,
    appId: input.appId,
    openId: input.user.openId,
    scopes: input.scopes,
    expiresAt: now + (v2 ? V2_ACCESS_TTL_S : V1_ACCESS_TTL_S) * 1000,
    revoked: false,
  };
  ctx.state.userTokens.set(access.token, access);
  if (!input.withRefresh) return { access };
  const grantAt = input.grantAt ?? now;
  const refresh: RefreshToken = {
    token: v2 ? jwtLike('refresh', input.user.openId, now) : `ur-${randomChars(40)}`,
    kind: input.kind,
    appId: input.appId,
    openId: input.user.openId,
    scopes: input.scopes,
    grantAt,
    expiresAt: Math.min(now + (v2 ? V2_REFRESH_TTL_S : V1_REFRESH_TTL_S) * 1000, grantAt + REFRESH_CHAIN_MS),
    used: false,
    revoked: false,
    accessToken: access.token,
  };
  ctx.state.refreshTokens.set(refresh.token, refresh);
  return { access, refresh };
}

export function secondsLeft(ctx: LarkContext, expiresAt: number): number {
  return Math.max(0, Math.floor((expiresAt - ctx.clock.now()) / 1000));
}

/** The user_info profile; contact fields only with their scopes (tenant-token callers get them all). */
export function userProfile(user: LarkUser, tenantKey: string, scopes: string[] | 'all'): Record<string, unknown> {
  const has = (scope: string) => scopes === 'all' || scopes.includes(scope);
  return {
    name: user.name,
    en_name: user.enName,
    avatar_url: user.avatarUrl,
    avatar_thumb: user.avatarUrl,
    avatar_middle: user.avatarUrl,
    avatar_big: user.avatarUrl,
    open_id: user.openId,
    union_id: user.unionId,
    tenant_key: tenantKey,
    ...(has('contact:user.email:readonly') && user.email ? { email: user.email } : {}),
    ...(has('contact:user.email:readonly') && user.enterpriseEmail ? { enterprise_email: user.enterpriseEmail } : {}),
    ...(has('contact:user.employee_id:readonly') ? { user_id: user.userId } : {}),
    ...(has('contact:user.phone:readonly') && user.mobile ? { mobile: user.mobile } : {}),
    ...(has('contact:user.employee_number:read') && user.employeeNo ? { employee_no: user.employeeNo } : {}),
  };
}
