import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createInstallAccessRepository } from './install-access.repository.ts';
import { createInstallAccessService } from './install-access.service.ts';
import { installRoutes } from './install.routes.ts';

/** The install page and its access (password, install token); the install service is in the core. */
export async function register(app: FastifyInstance, core: Core) {
  const installAccess = createInstallAccessService({
    apps: core.shared.apps,
    access: createInstallAccessRepository(core.db),
    policy: core.shared.policy,
    box: core.box,
  });
  await app.register(installRoutes({ install: core.shared.install, installAccess, ...core.links }));
}
