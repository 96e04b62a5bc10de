import { html, redirect, type FakeRequest, type FakeResponse, type RouteDef } from '../../shared/http-server.ts';
import type { LarkContext } from '../lark-context.ts';
import type { LarkApp, LoginChoice } from '../lark-state.ts';
import { mintCode } from '../user-tokens.ts';

/** Query hints a browser (or an out-of-process test) may add to the authorize URL instead of setNextLogin. */
export const LOGIN_HINT_USER = 'fake_user';
export const LOGIN_HINT_DENY = 'fake_deny';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function errorPage(code: number, message: string): FakeResponse {
  return html(
    400,
    `<!doctype html><meta charset="utf-8"><title>授权失败</title><h1>错误码 ${code}</h1><p>${escapeHtml(message)}</p>`,
  );
}

/**
 * A redirect_uri is allowed when a whitelist entry has the same scheme and host, the same port (an entry
 * without a port allows any, so the default loopback entries fit dev servers), and a path that prefixes it.
 */
export function isRedirectAllowed(app: LarkApp, redirectUri: string): boolean {
  let target: URL;
  try {
    target = new URL(redirectUri);
  } catch {
    return false;
  }
  return app.redirectUris.some((entry) => {
    try {
      const allowed = new URL(entry);
      const portOk = allowed.port === '' || allowed.port === target.port;
      return (
        allowed.protocol === target.protocol &&
        allowed.hostname === target.hostname &&
        portOk &&
        target.pathname.startsWith(allowed.pathname)
      );
    } catch {
      return false;
    }
  });
}

/** Adds the query to the redirect target, before any #fragment. */
export function withQuery(target: string, params: Record<string, string | undefined>): string {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

function chooserPage(ctx: LarkContext, req: FakeRequest, app: LarkApp): FakeResponse {
  const link = (param: string, value: string) => {
    const query = new URLSearchParams(req.query);
    query.set(param, value);
    return `${req.path}?${query.toString()}`;
  };
  const users = [...ctx.state.users.values()]
    .map(
      (u) =>
        `<li><a href="${escapeHtml(link(LOGIN_HINT_USER, u.openId))}">${escapeHtml(u.name)}</a> <code>${escapeHtml(u.openId)}</code></li>`,
    )
    .join('');
  return html(
    200,
    `<!doctype html><meta charset="utf-8"><title>飞书授权（模拟）</title><h1>授权 ${escapeHtml(app.appId)}</h1>` +
      `<p>选择同意授权的用户：</p><ul>${users}</ul><p><a href="${escapeHtml(link(LOGIN_HINT_DENY, '1'))}">拒绝授权</a></p>`,
  );
}

/** The authorize page: validates the request, then approves or denies as the test chose (or shows a chooser). */
function authorize(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const q = req.query;
  const clientId = q.get('client_id') ?? q.get('app_id') ?? '';
  const redirectUri = q.get('redirect_uri') ?? '';
  const state = q.get('state') ?? undefined;
  const app = ctx.state.apps.get(clientId);
  if (!clientId || !app) return errorPage(20048, `应用不存在：client_id=${clientId}`);
  if (app.disabled) return errorPage(20069, '应用已停用');
  if (req.path.endsWith('/authorize') && q.get('response_type') !== 'code')
    return errorPage(20001, 'response_type 必须为 code');
  if (!redirectUri) return errorPage(20001, '缺少 redirect_uri');
  try {
    new URL(redirectUri);
  } catch {
    return errorPage(20029, `redirect_uri 格式错误：${redirectUri}`);
  }
  if (!isRedirectAllowed(app, redirectUri))
    return errorPage(20029, `redirect_uri 不在应用的重定向白名单中：${redirectUri}`);
  const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.length > 50) return errorPage(20001, 'scope 最多 50 个');
  const missing = app.scopes ? scopes.filter((s) => !app.scopes?.includes(s)) : [];
  if (missing.length) return errorPage(20027, `应用未开通权限：${missing.join(' ')}`);
  const challenge = q.get('code_challenge') ?? undefined;
  const method = q.get('code_challenge_method') ?? 'plain';
  if (challenge && method !== 'S256' && method !== 'plain')
    return errorPage(20001, 'code_challenge_method 只能为 S256 或 plain');

  let choice: LoginChoice | undefined = ctx.state.nextLogins.shift();
  if (!choice && q.get(LOGIN_HINT_DENY)) choice = { deny: true };
  if (!choice && q.get(LOGIN_HINT_USER)) choice = { openId: q.get(LOGIN_HINT_USER) ?? '' };
  if (!choice) return chooserPage(ctx, req, app);
  if ('deny' in choice) return redirect(withQuery(redirectUri, { error: 'access_denied', state }));
  if (!ctx.state.users.has(choice.openId)) return errorPage(20008, `用户不存在：${choice.openId}`);
  const code = mintCode(ctx, {
    openId: choice.openId,
    appId: app.appId,
    redirectUri,
    scopes,
    codeChallenge: challenge,
    codeChallengeMethod: challenge ? (method as 'S256' | 'plain') : undefined,
  });
  return redirect(withQuery(redirectUri, { code: code.code, state }));
}

export function oauthAuthorizeRoutes(ctx: LarkContext): RouteDef[] {
  return [
    {
      name: 'oauth.authorize',
      method: 'GET',
      path: '/open-apis/authen/v1/authorize',
      handler: (req) => authorize(ctx, req),
    },
    {
      name: 'oauth.authorize_legacy',
      method: 'GET',
      path: '/open-apis/authen/v1/index',
      handler: (req) => authorize(ctx, req),
    },
    {
      name: 'passport.authorize',
      method: 'GET',
      path: '/suite/passport/oauth/authorize',
      handler: (req) => authorize(ctx, req),
    },
  ];
}
