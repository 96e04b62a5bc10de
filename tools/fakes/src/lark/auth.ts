import type { FakeRequest, FakeResponse } from '../shared/http-server.ts';
import { fail } from './envelope.ts';
import type { LarkContext } from './lark-context.ts';

export type Principal =
  | { kind: 'tenant'; appId: string; token: string }
  | { kind: 'user'; appId: string; openId: string; scopes: string[]; token: string };

const INVALID_TENANT = 'Invalid access token for authorization. Please make a request with token attached.';

export function bearerOf(req: FakeRequest): string | null {
  const header = req.headers.authorization;
  const match = /^Bearer\s+(\S+)$/i.exec(typeof header === 'string' ? header.trim() : '');
  return match?.[1] ?? null;
}

/**
 * The gateway's bearer check (contract §H): 99991661 missing, 99991671 wrong shape, 99991663 bad or expired
 * tenant token (or a tenant token on a user-only API), 99991668 bad user token, 99991677 expired user token.
 * Gateway errors answer HTTP 400.
 */
export function authenticate(
  ctx: LarkContext,
  req: FakeRequest,
  accept: ReadonlyArray<'tenant' | 'user'>,
): Principal | FakeResponse {
  const token = bearerOf(req);
  if (!token)
    return fail(400, 99991661, 'Missing access token for authorization. Please make a request with token attached.');
  const now = ctx.clock.now();
  if (token.startsWith('t-')) {
    const found = ctx.state.tenantTokens.find((t) => t.token === token);
    if (!found || found.revoked || found.expiresAt <= now) return fail(400, 99991663, INVALID_TENANT);
    if (!accept.includes('tenant'))
      return fail(400, 99991663, `${INVALID_TENANT} This API accepts a user_access_token only.`);
    return { kind: 'tenant', appId: found.appId, token };
  }
  if (token.startsWith('u-') || token.startsWith('eyJ')) {
    const found = ctx.state.userTokens.get(token);
    if (!found || found.revoked)
      return fail(400, 99991668, 'Invalid access token for authorization. The user_access_token is invalid.');
    if (found.expiresAt <= now) return fail(400, 99991677, 'Authentication token expired.');
    if (!accept.includes('user')) return fail(400, 99991668, 'This API does not accept a user_access_token.');
    return { kind: 'user', appId: found.appId, openId: found.openId, scopes: found.scopes, token };
  }
  return fail(400, 99991671, 'Invalid token format: an access token starts with t- or u-.');
}

export function isPrincipal(value: Principal | FakeResponse): value is Principal {
  return 'kind' in value;
}
