import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { healthRoutes } from './health.routes.ts';
import { createHealthService } from './health.service.ts';

/** The health check (database and file store). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(healthRoutes(createHealthService({ db: core.db, blobs: core.blobs })));
}
