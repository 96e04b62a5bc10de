import type { FastifyInstance } from 'fastify';
import type { AppMetrics } from '../lib/app-metrics.ts';

/** What a request that matched no route is counted as: its URL would make one series per probe of a scanner. */
const UNMATCHED_ROUTE = '(unmatched)';

/** Counts every answered request and its time by route pattern and status (for /metrics). */
export function registerRequestMetrics(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.requestSeconds.observe(labels, reply.elapsedTime / 1000);
  });
}
