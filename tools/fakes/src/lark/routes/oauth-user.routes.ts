import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { authenticate, bearerOf, isPrincipal } from '../auth.ts';
import { fail, isRecord, ok } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import type { LarkUser } from '../lark-state.ts';
import { issueUserTokens, OLD_ACCESS_GRACE_MS, secondsLeft, userProfile } from '../user-tokens.ts';

/** HTTP 200 with a code: the legacy authen APIs answer errors this way. */
const legacyFail = (code: number, msg: string): FakeResponse => ({ status: 200, body: { code, msg } });

function userStatusError(user: LarkUser | undefined): FakeResponse | null {
  if (!user) return legacyFail(20008, 'user not exist');
  if (user.status === 'resigned') return legacyFail(20021, 'user resigned');
  if (user.status === 'frozen') return legacyFail(20022, 'user frozen');
  if (user.status === 'unregistered') return legacyFail(20023, 'user not registered');
  return null;
}

function userInfo(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = authenticate(ctx, req, ['user']);
  if (!isPrincipal(principal)) return principal;
  if (principal.kind !== 'user') return fail(400, 99991663, 'Invalid access token for authorization.');
  const user = ctx.state.users.get(principal.openId);
  const error = userStatusError(user);
  if (error || !user) return error ?? legacyFail(20008, 'user not exist');
  const app = ctx.state.apps.get(principal.appId);
  return ok(userProfile(user, app?.tenantKey ?? '', principal.scopes));
}

/** The legacy v1 exchange needs the app's (or tenant's) token in the Authorization header. */
function legacyCaller(ctx: LarkContext, req: FakeRequest): { appId: string } | FakeResponse {
  const token = bearerOf(req);
  if (!token)
    return fail(400, 99991661, 'Missing access token for authorization. Please make a request with token attached.');
  const found = ctx.state.tenantTokens.find((t) => t.token === token);
  if (!found || found.revoked || found.expiresAt <= ctx.clock.now())
    return legacyFail(20014, 'app access token invalid');
  return { appId: found.appId };
}

function v1Exchange(ctx: LarkContext, req: FakeRequest, withProfile: boolean): FakeResponse {
  const caller = legacyCaller(ctx, req);
  if (!('appId' in caller)) return caller;
  const body = isRecord(req.body) ? req.body : {};
  if (body.grant_type !== 'authorization_code' || typeof body.code !== 'string')
    return legacyFail(20001, 'bad request: grant_type and code are required');
  const code = ctx.state.codes.get(body.code);
  if (!code || code.used) return legacyFail(20003, 'code is invalid or used');
  if (code.expiresAt <= ctx.clock.now()) return legacyFail(20004, 'code expired');
  if (code.appId !== caller.appId) return legacyFail(20024, 'code does not belong to this app');
  const user = ctx.state.users.get(code.openId);
  const error = userStatusError(user);
  if (error || !user) return error ?? legacyFail(20008, 'user not exist');
  code.used = true;
  const issued = issueUserTokens(ctx, {
    kind: 'v1',
    appId: caller.appId,
    user,
    scopes: code.scopes,
    withRefresh: true,
  });
  const app = ctx.state.apps.get(caller.appId);
  return ok({
    access_token: issued.access.token,
    refresh_token: issued.refresh?.token,
    token_type: 'Bearer',
    expires_in: secondsLeft(ctx, issued.access.expiresAt),
    refresh_expires_in: secondsLeft(ctx, issued.refresh?.expiresAt ?? 0),
    scope: code.scopes.join(' '),
    ...(withProfile
      ? { ...userProfile(user, app?.tenantKey ?? '', 'all'), sid: `sid-${issued.access.token.slice(2, 18)}` }
      : {}),
  });
}

function v1Refresh(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const caller = legacyCaller(ctx, req);
  if (!('appId' in caller)) return caller;
  const body = isRecord(req.body) ? req.body : {};
  if (body.grant_type !== 'refresh_token' || typeof body.refresh_token !== 'string')
    return legacyFail(20001, 'bad request: grant_type and refresh_token are required');
  const old = ctx.state.refreshTokens.get(body.refresh_token);
  if (old?.kind !== 'v1' || old.appId !== caller.appId) return legacyFail(20026, 'refresh token invalid');
  if (old.revoked) return legacyFail(20064, 'refresh token revoked');
  if (old.used) return legacyFail(20073, 'refresh token already used');
  if (old.expiresAt <= ctx.clock.now()) return legacyFail(20037, 'refresh token expired');
  const user = ctx.state.users.get(old.openId);
  const error = userStatusError(user);
  if (error || !user) return error ?? legacyFail(20008, 'user not exist');
  old.used = true;
  const previous = ctx.state.userTokens.get(old.accessToken);
  if (previous) previous.expiresAt = Math.min(previous.expiresAt, ctx.clock.now() + OLD_ACCESS_GRACE_MS);
  const issued = issueUserTokens(ctx, {
    kind: 'v1',
    appId: caller.appId,
    user,
    scopes: old.scopes,
    withRefresh: true,
    grantAt: old.grantAt,
  });
  return ok({
    access_token: issued.access.token,
    refresh_token: issued.refresh?.token,
    token_type: 'Bearer',
    expires_in: secondsLeft(ctx, issued.access.expiresAt),
    refresh_expires_in: secondsLeft(ctx, issued.refresh?.expiresAt ?? 0),
    scope: old.scopes.join(' '),
  });
}

/** Legacy passport token exchange: form body, flat answer. */
function passportToken(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const body = isRecord(req.body) ? req.body : {};
  const flatFail = (error: string, description: string): FakeResponse => ({
    status: 400,
    body: { error, error_description: description },
  });
  const app = typeof body.client_id === 'string' ? ctx.state.apps.get(body.client_id) : undefined;
  if (!app || body.client_secret !== app.appSecret) return flatFail('invalid_client', 'bad client_id or client_secret');
  let user: LarkUser | undefined;
  let scopes: string[] = [];
  let grantAt: number | undefined;
  if (body.grant_type === 'authorization_code') {
    const code = typeof body.code === 'string' ? ctx.state.codes.get(body.code) : undefined;
    if (!code || code.used || code.expiresAt <= ctx.clock.now() || code.appId !== app.appId)
      return flatFail('invalid_grant', 'code is invalid, used or expired');
    if (typeof body.redirect_uri === 'string' && body.redirect_uri !== code.redirectUri)
      return flatFail('invalid_grant', 'redirect_uri mismatch');
    code.used = true;
    user = ctx.state.users.get(code.openId);
    scopes = code.scopes;
  } else if (body.grant_type === 'refresh_token') {
    const old = typeof body.refresh_token === 'string' ? ctx.state.refreshTokens.get(body.refresh_token) : undefined;
    if (!old || old.used || old.revoked || old.expiresAt <= ctx.clock.now() || old.appId !== app.appId)
      return flatFail('invalid_grant', 'refresh_token is invalid');
    old.used = true;
    user = ctx.state.users.get(old.openId);
    scopes = old.scopes;
    grantAt = old.grantAt;
  } else {
    return flatFail('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }
  if (!user) return flatFail('invalid_grant', 'user does not exist');
  const issued = issueUserTokens(ctx, { kind: 'v1', appId: app.appId, user, scopes, withRefresh: true, grantAt });
  return {
    status: 200,
    body: {
      access_token: issued.access.token,
      token_type: 'Bearer',
      expires_in: secondsLeft(ctx, issued.access.expiresAt),
      refresh_token: issued.refresh?.token,
      refresh_expires_in: secondsLeft(ctx, issued.refresh?.expiresAt ?? 0),
    },
  };
}

function passportUserInfo(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = authenticate(ctx, req, ['user']);
  if (!isPrincipal(principal) || principal.kind !== 'user')
    return { status: 401, body: { error: 'invalid_token', error_description: 'bad or expired access token' } };
  const user = ctx.state.users.get(principal.openId);
  if (!user) return { status: 401, body: { error: 'invalid_token', error_description: 'user does not exist' } };
  const profile = userProfile(user, ctx.state.apps.get(principal.appId)?.tenantKey ?? '', 'all');
  return { status: 200, body: { sub: user.openId, picture: user.avatarUrl, ...profile } };
}

export function oauthUserRoutes(ctx: LarkContext): RouteDef[] {
  return [
    {
      name: 'authen.user_info',
      method: 'GET',
      path: '/open-apis/authen/v1/user_info',
      handler: (req) => userInfo(ctx, req),
    },
    {
      name: 'authen.oidc_access_token',
      method: 'POST',
      path: '/open-apis/authen/v1/oidc/access_token',
      handler: (req) => v1Exchange(ctx, req, false),
    },
    {
      name: 'authen.oidc_refresh',
      method: 'POST',
      path: '/open-apis/authen/v1/oidc/refresh_access_token',
      handler: (req) => v1Refresh(ctx, req),
    },
    {
      name: 'authen.access_token',
      method: 'POST',
      path: '/open-apis/authen/v1/access_token',
      handler: (req) => v1Exchange(ctx, req, true),
    },
    {
      name: 'authen.refresh_access_token',
      method: 'POST',
      path: '/open-apis/authen/v1/refresh_access_token',
      handler: (req) => v1Refresh(ctx, req),
    },
    {
      name: 'passport.token',
      method: 'POST',
      path: '/suite/passport/oauth/token',
      handler: (req) => passportToken(ctx, req),
    },
    {
      name: 'passport.userinfo',
      method: 'GET',
      path: '/suite/passport/oauth/userinfo',
      handler: (req) => passportUserInfo(ctx, req),
    },
  ];
}
