import type { FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { randomChars } from '../../shared/ids.ts';
import { authenticate, isPrincipal } from '../auth.ts';
import { isRecord, ok } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import type { TenantToken } from '../lark-state.ts';

export const TOKEN_LIFETIME_MS = 7200_000;
export const REISSUE_WINDOW_MS = 30 * 60_000;

/**
 * The 30-minute rule: while 30 minutes or more remain, the same token comes back with its remaining
 * lifetime; in the last 30 minutes a new token is issued and the old one stays valid until it expires.
 */
export function issueTenantToken(ctx: LarkContext, appId: string): { token: TenantToken; expire: number } {
  const now = ctx.clock.now();
  const live = ctx.state.tenantTokens.filter((t) => t.appId === appId && !t.revoked && t.expiresAt > now);
  const newest = live.sort((a, b) => b.issuedAt - a.issuedAt)[0];
  if (newest && newest.expiresAt - now >= REISSUE_WINDOW_MS) {
    return { token: newest, expire: Math.floor((newest.expiresAt - now) / 1000) };
  }
  const token: TenantToken = {
    token: `t-${randomChars(40)}`,
    appId,
    issuedAt: now,
    expiresAt: now + TOKEN_LIFETIME_MS,
    revoked: false,
  };
  ctx.state.tenantTokens.push(token);
  return { token, expire: TOKEN_LIFETIME_MS / 1000 };
}

/** Checks `{app_id, app_secret}`; token errors are HTTP 200 with a code (10014 "app secret invalid" observed). */
function checkAppCredentials(ctx: LarkContext, body: unknown): { appId: string } | FakeResponse {
  if (
    !isRecord(body) ||
    typeof body.app_id !== 'string' ||
    typeof body.app_secret !== 'string' ||
    !body.app_id ||
    !body.app_secret
  ) {
    return { status: 200, body: { code: 10003, msg: 'param invalid: app_id and app_secret are required' } };
  }
  const app = ctx.state.apps.get(body.app_id);
  if (!app) return { status: 200, body: { code: 10003, msg: `invalid param: app_id ${body.app_id} does not exist` } };
  if (app.appSecret !== body.app_secret) return { status: 200, body: { code: 10014, msg: 'app secret invalid' } };
  if (app.disabled) return { status: 200, body: { code: 10014, msg: 'app unavailable' } };
  return { appId: app.appId };
}

export function tokenRoutes(ctx: LarkContext): RouteDef[] {
  return [
    {
      name: 'auth.tenant_access_token',
      method: 'POST',
      path: '/open-apis/auth/v3/tenant_access_token/internal',
      handler: (req) => {
        const checked = checkAppCredentials(ctx, req.body);
        if (!('appId' in checked)) return checked;
        const { token, expire } = issueTenantToken(ctx, checked.appId);
        return { status: 200, body: { code: 0, msg: 'ok', tenant_access_token: token.token, expire } };
      },
    },
    {
      name: 'auth.app_access_token',
      method: 'POST',
      path: '/open-apis/auth/v3/app_access_token/internal',
      handler: (req) => {
        const checked = checkAppCredentials(ctx, req.body);
        if (!('appId' in checked)) return checked;
        // For a self-built app the app token and the tenant token are the same value.
        const { token, expire } = issueTenantToken(ctx, checked.appId);
        return {
          status: 200,
          body: { code: 0, msg: 'ok', app_access_token: token.token, expire, tenant_access_token: token.token },
        };
      },
    },
    {
      name: 'jssdk.ticket',
      method: 'POST',
      path: '/open-apis/jssdk/ticket/get',
      handler: (req) => {
        const principal = authenticate(ctx, req, ['tenant']);
        if (!isPrincipal(principal)) return principal;
        ctx.state.jsTicketCalls += 1;
        const now = ctx.clock.now();
        const current = ctx.state.jsTickets.find(
          (t) => t.appId === principal.appId && t.expiresAt - now >= REISSUE_WINDOW_MS,
        );
        if (current)
          return ok({ ticket: current.ticket, expire_in: Math.floor((current.expiresAt - now) / 1000) }, 'ok');
        const ticket = { ticket: randomChars(48), appId: principal.appId, expiresAt: now + TOKEN_LIFETIME_MS };
        ctx.state.jsTickets.push(ticket);
        return ok({ ticket: ticket.ticket, expire_in: TOKEN_LIFETIME_MS / 1000 }, 'ok');
      },
    },
  ];
}
