import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { versionLookupRoutes } from './version-lookup.routes.ts';
import { createVersionLookupService } from './version-lookup.service.ts';
import { createRemoveFilesJob } from './version-removal.job.ts';
import { versionRemovalRoutes } from './version-removal.routes.ts';
import { createVersionRemovalService } from './version-removal.service.ts';
import { versionsRoutes } from './versions.routes.ts';
import { createVersionsService } from './versions.service.ts';

/** An app's versions, the lookup by version name, and their removal (a tombstone now, the files by a job). */
export async function register(app: FastifyInstance, core: Core) {
  const { repos, clock } = core;
  const policy = core.shared.policy;
  const versions = createVersionsService({ versions: repos.versions, policy, clock });
  await app.register(versionsRoutes({ versions, ...core.links }));
  const lookup = createVersionLookupService({ apps: repos.apps, versions: repos.versions, policy });
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
