import { createHash } from 'node:crypto';
import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { isRecord, oauthFail } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import type { LarkApp, LarkUser } from '../lark-state.ts';
import { issueUserTokens, OLD_ACCESS_GRACE_MS, secondsLeft, type IssuedUserTokens } from '../user-tokens.ts';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

function str(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function basicCredentials(req: FakeRequest): { id: string; secret: string } | null {
  const header = req.headers.authorization;
  const match = /^Basic\s+(\S+)$/i.exec(typeof header === 'string' ? header : '');
  if (!match?.[1]) return null;
  const [id = '', ...rest] = Buffer.from(match[1], 'base64').toString('utf8').split(':');
  return { id, secret: rest.join(':') };
}

function success(ctx: LarkContext, issued: IssuedUserTokens): FakeResponse {
  const body: Record<string, unknown> = {
    code: 0,
    access_token: issued.access.token,
    expires_in: secondsLeft(ctx, issued.access.expiresAt),
  };
  if (issued.refresh) {
    body.refresh_token = issued.refresh.token;
    body.refresh_token_expires_in = secondsLeft(ctx, issued.refresh.expiresAt);
  }
  body.token_type = 'Bearer';
  body.scope = issued.access.scopes.join(' ');
  return { status: 200, body };
}

function checkUser(user: LarkUser | undefined): FakeResponse | null {
  if (!user) return oauthFail(20008, 'invalid_grant', 'user does not exist');
  if (user.status !== 'active') return oauthFail(20066, 'invalid_grant', `user status is ${user.status}`);
  if (!user.canUseApp) return oauthFail(20010, 'invalid_grant', 'user may not use this app');
  return null;
}

/** Optional `scope` narrows the grant: no duplicates (20067), only granted scopes (20068). */
function narrowScopes(requested: string | undefined, granted: string[]): string[] | FakeResponse {
  if (requested === undefined) return granted;
  const list = requested.split(' ').filter(Boolean);
  if (new Set(list).size !== list.length) return oauthFail(20067, 'invalid_scope', 'duplicate scopes');
  const extra = list.filter((s) => !granted.includes(s));
  if (extra.length) return oauthFail(20068, 'invalid_scope', `scope not granted: ${extra.join(' ')}`);
  return list;
}

function exchangeCode(ctx: LarkContext, app: LarkApp, body: Record<string, unknown>): FakeResponse {
  const codeValue = str(body, 'code');
  if (!codeValue) return oauthFail(20001, 'invalid_request', 'code is required');
  const code = ctx.state.codes.get(codeValue);
  if (!code) return oauthFail(20003, 'invalid_grant', 'the code is not found or has been used');
  if (code.used) return oauthFail(20065, 'invalid_grant', 'the code has already been used');
  if (code.expiresAt <= ctx.clock.now()) return oauthFail(20004, 'invalid_grant', 'the code has expired');
  if (code.appId !== app.appId) return oauthFail(20024, 'invalid_grant', 'the code belongs to another client_id');
  const redirectUri = str(body, 'redirect_uri');
  if (redirectUri !== undefined && redirectUri !== code.redirectUri)
    return oauthFail(20071, 'invalid_grant', 'redirect_uri does not match the authorize request');
  if (code.codeChallenge) {
    const verifier = str(body, 'code_verifier');
    if (!verifier || !VERIFIER.test(verifier))
      return oauthFail(20049, 'invalid_grant', 'PKCE verification failed: bad code_verifier');
    const derived =
      code.codeChallengeMethod === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
    if (derived !== code.codeChallenge) return oauthFail(20049, 'invalid_grant', 'PKCE verification failed');
  }
  const user = ctx.state.users.get(code.openId);
  const userError = checkUser(user);
  if (userError || !user) return userError ?? oauthFail(20008, 'invalid_grant', 'user does not exist');
  const scopes = narrowScopes(str(body, 'scope'), code.scopes);
  if (!Array.isArray(scopes)) return scopes;
  code.used = true;
  const withRefresh = scopes.includes('offline_access') && app.refreshEnabled;
  return success(ctx, issueUserTokens(ctx, { kind: 'v2', appId: app.appId, user, scopes, withRefresh }));
}

function refresh(ctx: LarkContext, app: LarkApp, body: Record<string, unknown>): FakeResponse {
  const value = str(body, 'refresh_token');
  if (!value) return oauthFail(20001, 'invalid_request', 'refresh_token is required');
  if (!app.refreshEnabled)
    return oauthFail(20074, 'unauthorized_client', 'refreshing user tokens is switched off for this app');
  const old = ctx.state.refreshTokens.get(value);
  if (old?.kind !== 'v2' || old.appId !== app.appId)
    return oauthFail(20026, 'invalid_grant', 'refresh token is invalid (only v2 refresh tokens are accepted)');
  if (old.revoked) return oauthFail(20064, 'invalid_grant', 'refresh token has been revoked');
  if (old.used) return oauthFail(20073, 'invalid_grant', 'refresh token has already been used');
  if (old.expiresAt <= ctx.clock.now()) return oauthFail(20037, 'invalid_grant', 'refresh token has expired');
  const user = ctx.state.users.get(old.openId);
  const userError = checkUser(user);
  if (userError || !user) return userError ?? oauthFail(20008, 'invalid_grant', 'user does not exist');
  const scopes = narrowScopes(str(body, 'scope'), old.scopes);
  if (!Array.isArray(scopes)) return scopes;
  old.used = true;
  const previous = ctx.state.userTokens.get(old.accessToken);
  if (previous) previous.expiresAt = Math.min(previous.expiresAt, ctx.clock.now() + OLD_ACCESS_GRACE_MS);
  return success(
    ctx,
    issueUserTokens(ctx, { kind: 'v2', appId: app.appId, user, scopes, withRefresh: true, grantAt: old.grantAt }),
  );
}

/** POST /open-apis/authen/v2/oauth/token: flat RFC 6749 answers, HTTP 400 for errors (500/503 for 20050/20072). */
function token(ctx: LarkContext, req: FakeRequest): FakeResponse {
  if (req.bodyError || !isRecord(req.body)) return oauthFail(20063, 'invalid_request', 'malformed request body');
  const body = req.body;
  const basic = basicCredentials(req);
  if (basic && str(body, 'client_secret'))
    return oauthFail(20070, 'invalid_client', 'two client authentication methods were used');
  const grantType = str(body, 'grant_type');
  const clientId = str(body, 'client_id') ?? basic?.id;
  const clientSecret = str(body, 'client_secret') ?? basic?.secret;
  if (!grantType || !clientId || !clientSecret)
    return oauthFail(20001, 'invalid_request', 'grant_type, client_id and client_secret are required');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token')
    return oauthFail(20036, 'unsupported_grant_type', `unsupported grant_type ${grantType}`);
  const app = ctx.state.apps.get(clientId);
  if (!app) return oauthFail(20048, 'invalid_client', 'app does not exist');
  if (app.appSecret !== clientSecret) return oauthFail(20002, 'invalid_client', 'client secret is invalid');
  if (app.disabled) return oauthFail(20069, 'invalid_client', 'app is disabled');
  return grantType === 'authorization_code' ? exchangeCode(ctx, app, body) : refresh(ctx, app, body);
}

export function oauthTokenRoutes(ctx: LarkContext): RouteDef[] {
  return [
    {
      name: 'oauth.token',
      method: 'POST',
      path: '/open-apis/authen/v2/oauth/token',
      handler: (req) => token(ctx, req),
    },
  ];
}
