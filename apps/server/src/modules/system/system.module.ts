import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { jobQueueRoutes } from './job-queue.routes.ts';
import { jobSchedulesRoutes } from './job-schedules.routes.ts';
import { createPublicUrlCheckService } from './public-url-check.service.ts';
import { systemRoutes } from './system.routes.ts';

/** The PUBLIC_URL check and the admin page of scheduled jobs and the job queue. */
export async function register(app: FastifyInstance, core: Core) {
  const { publicUrl, secret } = core.config;
  await app.register(systemRoutes(createPublicUrlCheckService({ publicUrl, secret })));
  await app.register(jobSchedulesRoutes(core.scheduler));
  await app.register(jobQueueRoutes(core.jobs));
}
