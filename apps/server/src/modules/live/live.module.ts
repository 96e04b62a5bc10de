import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { liveRoutes } from './live.routes.ts';

/** Live notifications: GET /api/events streams core.live's events to the browsers (the bell, the open app page). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(liveRoutes({ hub: core.live, policy: core.shared.policy }));
}
