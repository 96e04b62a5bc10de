import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LIVE_EVENTS_PATH, LiveMessages, MAX_LIVE_CONNECTIONS_PER_USER } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import type { LiveEvent, LiveHub } from '../../lib/live-hub.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';

/** A comment line this often keeps proxies and browsers from taking a quiet stream for a dead one. */
export const HEARTBEAT_MS = 25_000;
/** How long a connection trusts what it learned of the user's permit on an app. */
const PERMIT_CACHE_MS = 30_000;

/**
 * GET /api/events: Server-Sent Events for the signed-in user — `ready` once listening, then `version`, `items`,
 * `task` and `notice` with `{ appId }` for the apps the user may view (their permit checked when the event comes),
 * and a heartbeat comment every 25 s. At most 5 streams per user (429 beyond). Not compressed, not buffered by
 * nginx (X-Accel-Buffering: no).
 */
export function liveRoutes(deps: { hub: LiveHub; policy: Pick<AppsPolicy, 'accessOf'> }): FastifyPluginAsyncZod {
  const perUser = new Map<number, number>();
  const open = new Set<ServerResponse>();

  return async (app) => {
    // Streams never end by themselves: closing the server ends them (else close would wait for every browser).
    app.addHook('preClose', async () => {
      for (const res of open) res.end();
      open.clear();
    });

    app.get(
      LIVE_EVENTS_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags: ['通知'],
          summary: '实时通知（SSE）',
          description: `登录用户。text/event-stream：连接后先发 ready，之后对有查看权限的应用发 version（新版本）、items（新的更新条目）、task（任务变化）、notice（新通知），data 为 {"appId": …}；每 25 秒一行心跳注释。每个用户最多 ${MAX_LIVE_CONNECTIONS_PER_USER} 个连接，超过时 429。`,
        },
      },
      async (req, reply) => {
        const user = currentUser(req);
        const count = perUser.get(user.userId) ?? 0;
        if (count >= MAX_LIVE_CONNECTIONS_PER_USER) throw AppError.tooManyRequests(LiveMessages.tooMany);
        perUser.set(user.userId, count + 1);
        const release = () => {
          const left = (perUser.get(user.userId) ?? 1) - 1;
          if (left > 0) perUser.set(user.userId, left);
          else perUser.delete(user.userId);
        };

        const res = reply.raw;
        let started = false;
        const waiting: LiveEvent[] = [];
        const permits = new Map<number, { at: number; allowed: Promise<boolean> }>();
        const mayView = (appId: number) => {
          const known = permits.get(appId);
          if (known && performance.now() - known.at < PERMIT_CACHE_MS) return known.allowed;
          const allowed = deps.policy.accessOf(user, appId).then(
            (access) => access !== null,
            () => false,
          );
          permits.set(appId, { at: performance.now(), allowed });
          return allowed;
        };
        const send = (event: LiveEvent) => {
          void mayView(event.appId).then((allowed) => {
            if (allowed && !res.writableEnded)
              res.write(`event: ${event.type}\ndata: ${JSON.stringify({ appId: event.appId })}\n\n`);
          });
        };
        let unsubscribe: () => void;
        try {
          unsubscribe = await deps.hub.subscribe((event) => (started ? send(event) : waiting.push(event)));
        } catch {
          release();
          throw new AppError('unavailable', LiveMessages.unavailable);
        }

        reply.hijack();
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
          connection: 'keep-alive',
        });
        res.write('retry: 5000\n\nevent: ready\ndata: {}\n\n');
        started = true;
        for (const event of waiting.splice(0)) send(event);
        open.add(res);
        const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          unsubscribe();
          release();
          open.delete(res);
        };
        req.raw.on('close', close);
        res.on('close', close);
      },
    );
  };
}
