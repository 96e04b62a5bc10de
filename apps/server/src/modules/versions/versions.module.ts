import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { versionLookupRoutes } from './version-lookup.routes.ts';
import { createVersionLookupService } from './version-lookup.service.ts';
import { createRemoveFilesJob } from './version-removal.job.ts';
import { versionRemovalRoutes } from './version-removal.routes.ts';
import { createVersionRemovalService } from './version-removal.service.ts';
import { createVersionsRepository } from './versions.repository.ts';
import { versionsRoutes } from './versions.routes.ts';
import { createVersionsService } from './versions.service.ts';

/** An app's versions, the lookup by version name, and their removal (a tombstone now, the files by a job). */
export async function register(app: FastifyInstance, core: Core) {
  const { clock } = core;
  const repo = createVersionsRepository(core.db);
  const policy = core.shared.policy;
  const versions = createVersionsService({ versions: repo, policy, clock });
  await app.register(versionsRoutes({ versions, ...core.links }));
  const lookup = createVersionLookupService({ apps: core.shared.apps, versions: repo, policy });
  await app.register(versionLookupRoutes({ lookup, ...core.links }));
  const removeFiles = createRemoveFilesJob({ db: core.db, blobs: core.blobs, clock, logger: core.logger });
  core.jobs.register(removeFiles);
  const removal = createVersionRemovalService({
    db: core.db,
    blobs: core.blobs,
    policy,
    jobs: core.jobs,
    job: () => removeFiles,
    clock,
  });
  await app.register(versionRemovalRoutes(removal));
  return { removal };
}
