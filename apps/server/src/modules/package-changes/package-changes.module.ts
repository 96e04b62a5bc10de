import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { packageChangesRoutes } from './package-changes.routes.ts';

/**
 * How the package itself changed between builds (issue 19): the diff of the facts stored at inspection, and the
 * thresholds that mark a build (core.shared.packageChanges, used by publishing).
 */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(packageChangesRoutes({ packages: core.shared.packageChanges, policy: core.shared.policy }));
}
