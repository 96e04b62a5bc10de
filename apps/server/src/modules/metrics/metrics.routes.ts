import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { safeEqual } from '../../lib/crypto.ts';
import type { MetricsService } from './metrics.service.ts';

export const METRICS_PATH = '/metrics';

export const MetricsMessages = {
  tokenRequired: '需要令牌：请求头 Authorization: Bearer <METRICS_TOKEN>',
  loopbackOnly: '/metrics 只对本机开放（不经代理）；要从别处采集，请设置 METRICS_TOKEN 并带上令牌',
} as const;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** A request from this machine that no proxy forwarded (nginx on the same host is loopback too, but adds these). */
function isLocalUnproxied(request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress ?? '';
  const h = request.headers;
  return LOOPBACK.has(peer) && !h['x-forwarded-for'] && !h.forwarded && !h['x-real-ip'];
}

/**
 * GET /metrics in the Prometheus text format, outside /api and the session: with METRICS_TOKEN only a request with
 * that Bearer token; without it only a loopback peer not behind a proxy (decisions: "/metrics: our own text writer,
 * loopback or a token").
 */
export function metricsRoutes(metrics: MetricsService, token: string | undefined): FastifyPluginAsync {
  return async (app) => {
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (token) {
        const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? '';
        if (!safeEqual(given, token)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          return reply.status(401).type('text/plain; charset=utf-8').send(`${MetricsMessages.tokenRequired}\n`);
        }
      } else if (!isLocalUnproxied(request)) {
        return reply.status(403).type('text/plain; charset=utf-8').send(`${MetricsMessages.loopbackOnly}\n`);
      }
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.render());
    });
  };
}
