import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import type { RateLimit } from '../../shared/rate-limiter.ts';
import { bearerOf } from '../auth.ts';
import { isRecord } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';

/** Contract §H: limits per API × app × tenant. Route names are those of the route files. */
export const DEFAULT_LARK_LIMITS: Readonly<Record<string, RateLimit>> = {
  'oauth.authorize': { perMinute: 1000, perSecond: 50 },
  'oauth.token': { perMinute: 1000, perSecond: 50 },
  'im.message.create': { perMinute: 1000, perSecond: 50 },
  'im.message.reply': { perMinute: 1000, perSecond: 50 },
  'im.message.patch': { perMinute: 1000, perSecond: 50 },
  'drive.subscribe': { perMinute: 1000, perSecond: 50 },
  'drive.get_subscribe': { perMinute: 10 },
  'drive.delete_subscribe': { perMinute: 10 },
  // Drive media: "not for high concurrency, at most 5 QPS".
  'drive.media.upload_all': { perSecond: 5 },
  'drive.media.download': { perSecond: 5 },
  'drive.media.upload_prepare': { perSecond: 5 },
  'drive.media.upload_part': { perSecond: 5 },
  'drive.media.upload_finish': { perSecond: 5 },
  'wiki.space.list': { perMinute: 100 },
  'wiki.node.list': { perMinute: 100 },
  'task.create': { perSecond: 10 },
  'task.get': { perSecond: 10 },
  'task.patch': { perSecond: 10 },
  'task.attachment.upload': { perSecond: 10 },
  'task.add_members': { perMinute: 100 },
  'task.custom_field.create': { perMinute: 100 },
  'task.tasklist.create': { perMinute: 1000, perSecond: 50 },
  'task.tasklist.get': { perMinute: 1000, perSecond: 50 },
  'task.tasklist.list': { perMinute: 1000, perSecond: 50 },
  'task.tasklist.tasks': { perMinute: 1000, perSecond: 50 },
  'bitable.app.create': { perMinute: 20 },
  'bitable.table.create': { perSecond: 10 },
  'bitable.field.create': { perSecond: 10 },
  'bitable.table.list': { perSecond: 20 },
  'bitable.field.list': { perSecond: 20 },
  'bitable.record.search': { perSecond: 20 },
  'bitable.record.list': { perSecond: 20 },
  'bitable.record.create': { perSecond: 50 },
  'bitable.record.batch_create': { perSecond: 50 },
  'bitable.record.update': { perSecond: 50 },
  'bitable.record.batch_update': { perSecond: 50 },
  'bitable.record.batch_delete': { perSecond: 50 },
  'bitable.record.delete': { perSecond: 50 },
  // Answered with 11232 by the bot route itself (HTTP 200), not with 429.
  'bot.hook': { perMinute: 100, perSecond: 5 },
};

/** Routes whose limit the route answers itself instead of the gateway's 429. */
const SELF_LIMITED = new Set(['bot.hook']);

/** Which app a request counts against: the bearer token's app, else the app id in the body, else "anonymous". */
export function rateKeyOf(ctx: LarkContext, req: FakeRequest): string {
  const token = bearerOf(req);
  if (token) {
    const appId =
      ctx.state.tenantTokens.find((t) => t.token === token)?.appId ?? ctx.state.userTokens.get(token)?.appId;
    if (appId) return appId;
  }
  const body = isRecord(req.body) ? req.body : {};
  const fromBody = body.client_id ?? body.app_id ?? req.query.get('client_id') ?? req.query.get('app_id');
  return typeof fromBody === 'string' ? fromBody : 'anonymous';
}

export function rateLimited(limit: number, resetSeconds: number): FakeResponse {
  return {
    status: 429,
    headers: { 'x-ogw-ratelimit-limit': String(limit), 'x-ogw-ratelimit-reset': String(resetSeconds) },
    body: { code: 99991400, msg: 'request trigger frequency limit' },
  };
}

/** Wraps each route that has a limit so that it answers 429 / 99991400 once its window is full. */
export function withRateLimits(ctx: LarkContext, routes: RouteDef[]): RouteDef[] {
  return routes.map((route) => {
    if (SELF_LIMITED.has(route.name)) return route;
    return {
      ...route,
      handler: async (req) => {
        const limit = ctx.rateLimits.get(route.name);
        if (!limit) return route.handler(req);
        const decision = ctx.limiter.hit(`${route.name}|${rateKeyOf(ctx, req)}`, limit);
        if (!decision.allowed) return rateLimited(decision.limit, decision.resetSeconds);
        const answer = await route.handler(req);
        answer.headers = { 'x-ogw-ratelimit-limit': String(decision.limit), ...answer.headers };
        return answer;
      },
    };
  });
}
