import { html, redirect, type FakeRequest, type FakeResponse, type RouteDef } from '../../shared/http-server.ts';
import { randomChars } from '../../shared/ids.ts';
import { wecomFail, wecomOk, type WecomContext } from '../wecom-context.ts';
import type { WecomAgent, WecomCode, WecomCorp } from '../wecom-state.ts';
import { isToken, requireToken } from './token.routes.ts';

export const CODE_TTL_MS = 5 * 60_000;
/** Query hint a browser (or an out-of-process test) may add to the login URL instead of setNextLogin. */
export const LOGIN_HINT_USER = 'fake_user';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function errorPage(errcode: number, message: string): FakeResponse {
  return html(
    400,
    `<!doctype html><meta charset="utf-8"><title>企业微信登录失败</title><h1>errcode ${errcode}</h1><p>${escapeHtml(message)}</p>`,
  );
}

/** The redirect host (with its port, or without when the entry has none) must be a trusted domain. */
export function isTrusted(agent: WecomAgent, redirectUri: string): boolean {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return false;
  }
  return agent.trustedDomains.some((d) => d === url.host || d === url.hostname);
}

export function mintCode(
  ctx: WecomContext,
  input: { corpId: string; agentId: string; userId: string; ttlMs?: number },
): WecomCode {
  const code: WecomCode = {
    code: randomChars(43, true),
    corpId: input.corpId,
    agentId: input.agentId,
    userId: input.userId,
    expiresAt: ctx.clock.now() + (input.ttlMs ?? CODE_TTL_MS),
    used: false,
  };
  ctx.state.codes.set(code.code, code);
  return code;
}

function chooserPage(ctx: WecomContext, req: FakeRequest, corp: WecomCorp): FakeResponse {
  const link = (userId: string) => {
    const query = new URLSearchParams(req.query);
    query.set(LOGIN_HINT_USER, userId);
    return `${req.path}?${query.toString()}`;
  };
  const members = [...ctx.state.members.values()]
    .map(
      (m) =>
        `<li><a href="${escapeHtml(link(m.userId))}">${escapeHtml(m.name)}</a> <code>${escapeHtml(m.userId)}</code></li>`,
    )
    .join('');
  return html(
    200,
    `<!doctype html><meta charset="utf-8"><title>企业微信登录（模拟）</title><h1>${escapeHtml(corp.name)}</h1><p>选择扫码登录的成员：</p><ul>${members}</ul>`,
  );
}

/** The SSO login page (and the legacy qrConnect): checks the app and redirect domain, then redirects with a code. */
function loginPage(ctx: WecomContext, req: FakeRequest): FakeResponse {
  const q = req.query;
  const corpId = q.get('appid') ?? '';
  const corp = ctx.state.corps.get(corpId);
  if (!corp) return errorPage(40013, `invalid corpid: ${corpId}`);
  if (req.path.endsWith('/sso/login') && q.get('login_type') !== 'CorpApp')
    return errorPage(40058, 'login_type must be CorpApp for a self-built app');
  const agent = corp.agents.find((a) => a.agentId === q.get('agentid'));
  if (!agent) return errorPage(40056, `invalid agentid: ${q.get('agentid') ?? ''}`);
  const redirectUri = q.get('redirect_uri') ?? '';
  if (!isTrusted(agent, redirectUri)) return errorPage(50001, `redirect_uri 与可信域名不一致：${redirectUri}`);
  const userId = ctx.state.nextLogins.shift() ?? q.get(LOGIN_HINT_USER);
  if (!userId) return chooserPage(ctx, req, corp);
  if (!ctx.state.members.has(userId)) return errorPage(60111, `userid not found: ${userId}`);
  const code = mintCode(ctx, { corpId, agentId: agent.agentId, userId });
  const target = new URL(redirectUri);
  target.searchParams.set('code', code.code);
  const state = q.get('state');
  if (state !== null) target.searchParams.set('state', state);
  return redirect(target.toString());
}

/** auth/getuserinfo: a member gives `userid`, a non-member `openid`; 40029 for a bad, used, expired or foreign code. */
function getUserInfo(ctx: WecomContext, req: FakeRequest): FakeResponse {
  const token = requireToken(ctx, req);
  if (!isToken(token)) return token;
  const value = req.query.get('code');
  if (!value) return wecomFail(41008, 'missing code');
  const code = ctx.state.codes.get(value);
  if (
    !code ||
    code.used ||
    code.expiresAt <= ctx.clock.now() ||
    code.corpId !== token.corpId ||
    code.agentId !== token.agentId
  ) {
    return wecomFail(40029, 'invalid code');
  }
  code.used = true;
  const member = ctx.state.members.get(code.userId);
  if (!member) return wecomFail(40029, 'invalid code');
  return member.external
    ? wecomOk({ openid: member.openId })
    : wecomOk({ userid: member.userId, user_ticket: randomChars(48, true) });
}

/** user/get: apps created after 2022 get no mobile or email here. */
function getUser(ctx: WecomContext, req: FakeRequest): FakeResponse {
  const token = requireToken(ctx, req);
  if (!isToken(token)) return token;
  const userId = req.query.get('userid');
  if (!userId) return wecomFail(41009, 'missing userid');
  const member = ctx.state.members.get(userId);
  if (!member || member.external) return wecomFail(60111, `userid not found, userid: ${userId}`);
  return wecomOk({
    userid: member.userId,
    name: member.name,
    department: member.department,
    position: member.position,
    status: 1,
    isleader: 0,
    enable: 1,
    main_department: member.department[0] ?? 1,
  });
}

export function ssoRoutes(ctx: WecomContext): RouteDef[] {
  return [
    { name: 'sso.login', method: 'GET', path: '/wwlogin/sso/login', handler: (req) => loginPage(ctx, req) },
    { name: 'sso.qrconnect', method: 'GET', path: '/wwopen/sso/qrConnect', handler: (req) => loginPage(ctx, req) },
    {
      name: 'auth.getuserinfo',
      method: 'GET',
      path: '/cgi-bin/auth/getuserinfo',
      handler: (req) => getUserInfo(ctx, req),
    },
    { name: 'user.get', method: 'GET', path: '/cgi-bin/user/get', handler: (req) => getUser(ctx, req) },
  ];
}
