import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { changesRoutes } from './changes.routes.ts';

/**
 * What changed between builds (issue 19): the source state of each version (recorded by publishing, resolved by
 * syncs: core.shared.sources) and the changes between two builds.
 */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(changesRoutes({ changes: core.shared.changes, policy: core.shared.policy }));
}
