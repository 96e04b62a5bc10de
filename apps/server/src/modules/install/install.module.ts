import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createInstallAccessRepository } from './install-access.repository.ts';
import { createInstallAccessService } from './install-access.service.ts';
import { installRoutes } from './install.routes.ts';
import { createInstallStatsRepository } from './install-stats.repository.ts';
import { installStatsRoutes } from './install-stats.routes.ts';
import { createInstallStatsService } from './install-stats.service.ts';

/** The install page, its access (password, install token) and its statistics; the install service is in the core. */
export async function register(app: FastifyInstance, core: Core) {
  const installAccess = createInstallAccessService({
    apps: core.shared.apps,
    access: createInstallAccessRepository(core.db),
    policy: core.shared.policy,
    box: core.box,
  });
  const stats = createInstallStatsService({
    stats: createInstallStatsRepository(core.db),
    versions: core.shared.versions,
    policy: core.shared.policy,
    clock: core.clock,
    logger: core.logger,
  });
  await app.register(installRoutes({ install: core.shared.install, installAccess, stats, ...core.links }));
  await app.register(installStatsRoutes(stats));
}
