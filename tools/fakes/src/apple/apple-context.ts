import type { FakeClock } from '../shared/clock.ts';
import type { FakeRequest, FakeResponse, Handler } from '../shared/http-server.ts';
import { agreementMissing, notAuthorized, parameterInvalid, rateLimited } from './apple-errors.ts';
import { verifyAscToken } from './apple-jwt.ts';
import type { ProfileSigner } from './apple-profile.ts';
import type { AppleState } from './apple-state.ts';

export interface AppleContext {
  state: AppleState;
  clock: FakeClock;
  signer: ProfileSigner;
  baseUrl: () => string;
  /** Why the last refused token was refused (tests; Apple says only NOT_AUTHORIZED). */
  lastAuthFailure: { reason: string } | null;
}

const HOUR_MS = 3_600_000;

/**
 * Every App Store Connect call: a valid ES256 token (401), the key's hourly budget (429), a signed
 * agreement (403 on every endpoint), then the handler. `X-Rate-Limit` is set on every answer.
 */
export function guarded(ctx: AppleContext, handler: Handler): Handler {
  return async (req) => {
    const check = verifyAscToken(req.headers.authorization, ctx.state.keys, ctx.clock.now());
    if (!check.ok) {
      ctx.lastAuthFailure = { reason: check.reason };
      return notAuthorized();
    }
    const now = ctx.clock.now();
    const recent = (ctx.state.hits.get(check.keyId) ?? []).filter((t) => t > now - HOUR_MS);
    const limit = ctx.state.hourlyLimit;
    const rateHeader = (used: number) => ({
      'x-rate-limit': `user-hour-lim:${limit};user-hour-rem:${Math.max(0, limit - used)};`,
    });
    if (recent.length >= limit) {
      ctx.state.hits.set(check.keyId, recent);
      return withHeaders(rateLimited(), rateHeader(recent.length));
    }
    recent.push(now);
    ctx.state.hits.set(check.keyId, recent);
    if (ctx.state.agreementExpired) return withHeaders(agreementMissing(), rateHeader(recent.length));
    return withHeaders(await handler(req), rateHeader(recent.length));
  };
}

function withHeaders(res: FakeResponse, headers: Record<string, string>): FakeResponse {
  return { ...res, headers: { ...res.headers, ...headers } };
}

export interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links: { self: string };
}

/** Filters a client may use per resource type: `filter[name]=a,b` matches any of the comma list. */
export type FilterSpec<T> = Record<string, (item: T, values: string[]) => boolean>;

export const exact =
  <T>(pick: (item: T) => string) =>
  (item: T, values: string[]) =>
    values.includes(pick(item));

const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 20;

/** A JSON:API collection answer (contract F2): filters, sort, `limit` ≤ 200, opaque cursor in `links.next`. */
export function listAnswer<T>(
  ctx: AppleContext,
  req: FakeRequest,
  items: T[],
  options: {
    filters: FilterSpec<T>;
    sortable: Record<string, (item: T) => string>;
    serialize: (item: T) => Resource;
    extra?: (page: T[]) => Record<string, unknown>;
  },
): FakeResponse {
  let list = [...items];
  for (const [key, raw] of req.query) {
    const filter = /^filter\[(\w+)\]$/.exec(key)?.[1];
    if (filter !== undefined) {
      const test = options.filters[filter];
      if (!test) return parameterInvalid(key, raw);
      const values = raw.split(',').filter(Boolean);
      list = list.filter((item) => test(item, values));
    }
  }
  const sort = req.query.get('sort');
  if (sort) {
    const field = sort.replace(/^-/, '');
    const pick = options.sortable[field];
    if (!pick) return parameterInvalid('sort', sort);
    list.sort((a, b) => pick(a).localeCompare(pick(b)) * (sort.startsWith('-') ? -1 : 1));
  }
  const limitRaw = req.query.get('limit');
  const limit = limitRaw === null ? DEFAULT_LIMIT : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return parameterInvalid('limit', limitRaw ?? '');
  let offset = 0;
  const cursor = req.query.get('cursor');
  if (cursor !== null) {
    const parsed = decodeCursor(cursor);
    if (parsed === null) return parameterInvalid('cursor', cursor);
    offset = parsed;
  }
  const page = list.slice(offset, offset + limit);
  const self = `${ctx.baseUrl()}${req.path}${req.query.size ? `?${req.query.toString()}` : ''}`;
  const links: Record<string, string> = { self };
  if (offset + limit < list.length) {
    const next = new URLSearchParams(req.query);
    next.set('cursor', encodeCursor(offset + limit));
    next.set('limit', String(limit));
    links.next = `${ctx.baseUrl()}${req.path}?${next.toString()}`;
  }
  return {
    status: 200,
    body: {
      data: page.map(options.serialize),
      ...(options.extra?.(page) ?? {}),
      links,
      meta: { paging: { total: list.length, limit } },
    },
  };
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset: String(offset) })).toString('base64url');
}

function decodeCursor(cursor: string): number | null {
  try {
    const value = Number(
      (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown }).offset,
    );
    return Number.isInteger(value) && value >= 0 ? value : null;
  } catch {
    return null;
  }
}

export function single(
  ctx: AppleContext,
  req: FakeRequest,
  resource: Resource,
  status = 200,
  included?: Resource[],
): FakeResponse {
  return {
    status,
    body: { data: resource, ...(included ? { included } : {}), links: { self: `${ctx.baseUrl()}${req.path}` } },
  };
}

/** `{data:{type, attributes, relationships}}` of a POST/PATCH, or null when the body is not that shape. */
export function entityOf(
  req: FakeRequest,
  type: string,
): { id?: unknown; attributes: Record<string, unknown>; relationships: Record<string, unknown> } | null {
  const body = req.body as
    | { data?: { type?: unknown; id?: unknown; attributes?: unknown; relationships?: unknown } }
    | undefined;
  const data = body?.data;
  if (!data || typeof data !== 'object' || data.type !== type) return null;
  const attributes =
    typeof data.attributes === 'object' && data.attributes !== null ? (data.attributes as Record<string, unknown>) : {};
  const relationships =
    typeof data.relationships === 'object' && data.relationships !== null
      ? (data.relationships as Record<string, unknown>)
      : {};
  return { id: data.id, attributes, relationships };
}
