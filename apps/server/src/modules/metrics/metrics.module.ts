import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createMetricsRepository } from './metrics.repository.ts';
import { metricsRoutes } from './metrics.routes.ts';
import { createMetricsService } from './metrics.service.ts';

/** GET /metrics (Prometheus): the counters in core.metrics and the gauges read when scraped. */
export async function register(app: FastifyInstance, core: Core) {
  const service = createMetricsService({
    metrics: core.metrics,
    repository: createMetricsRepository(core.db),
    db: core.db,
    queueFigures: () => core.jobs.queueFigures(),
  });
  app.addHook('onClose', async () => service.close());
  await app.register(metricsRoutes(service, core.config.metricsToken));
}
