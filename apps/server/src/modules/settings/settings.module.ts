import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { repoHostsRoutes } from './repo-hosts.routes.ts';
import { settingsRoutes } from './settings.routes.ts';

/** System settings and the rules for repository hosts (both read by other modules, so built in the core). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(settingsRoutes(core.shared.settings));
  await app.register(repoHostsRoutes(core.shared.repoHosts));
}
