import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { randomChars } from '../../shared/ids.ts';
import { wecomFail, wecomOk, type WecomContext } from '../wecom-context.ts';
import type { WecomToken } from '../wecom-state.ts';

export const TOKEN_LIFETIME_S = 7200;

/** Within its lifetime a repeated gettoken returns the same token (with what remains); after it, a new one. */
export function issueToken(
  ctx: WecomContext,
  corpId: string,
  agentId: string,
): { token: WecomToken; expiresIn: number } {
  const now = ctx.clock.now();
  const live = ctx.state.tokens.find(
    (t) => t.corpId === corpId && t.agentId === agentId && !t.revoked && t.expiresAt > now,
  );
  if (live) return { token: live, expiresIn: Math.floor((live.expiresAt - now) / 1000) };
  const token: WecomToken = {
    token: randomChars(64, true),
    corpId,
    agentId,
    expiresAt: now + TOKEN_LIFETIME_S * 1000,
    revoked: false,
  };
  ctx.state.tokens.push(token);
  return { token, expiresIn: TOKEN_LIFETIME_S };
}

/** The access_token query check of every cgi-bin API: 41001 missing, 40014 invalid, 42001 expired. */
export function requireToken(ctx: WecomContext, req: FakeRequest): WecomToken | FakeResponse {
  const value = req.query.get('access_token');
  if (!value) return wecomFail(41001, 'access_token missing');
  const token = ctx.state.tokens.find((t) => t.token === value);
  if (!token || token.revoked) return wecomFail(40014, `invalid access_token, access_token: ${value.slice(0, 12)}…`);
  if (token.expiresAt <= ctx.clock.now()) return wecomFail(42001, 'access_token expired');
  return token;
}

export function isToken(value: WecomToken | FakeResponse): value is WecomToken {
  return 'agentId' in value;
}

function getToken(ctx: WecomContext, req: FakeRequest): FakeResponse {
  const corpId = req.query.get('corpid');
  const secret = req.query.get('corpsecret');
  if (!corpId) return wecomFail(41002, 'corpid missing');
  if (!secret) return wecomFail(41004, 'corpsecret missing');
  if (!ctx.state.corps.has(corpId)) return wecomFail(40013, `invalid corpid, corpid: ${corpId}`);
  const agent = ctx.state.findAgent(corpId, secret);
  if (!agent) return wecomFail(40001, 'invalid credential, corpsecret is invalid');
  const { token, expiresIn } = issueToken(ctx, corpId, agent.agentId);
  return wecomOk({ access_token: token.token, expires_in: expiresIn });
}

export function tokenRoutes(ctx: WecomContext): RouteDef[] {
  return [{ name: 'gettoken', method: 'GET', path: '/cgi-bin/gettoken', handler: (req) => getToken(ctx, req) }];
}
