import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createOrphanCheck } from './orphan-check.ts';
import { storageUsageRoutes } from './storage-usage.routes.ts';
import { createStorageUsageService } from './storage-usage.service.ts';

/** The storage page (issue 20): bytes per app and platform, largest builds, weekly growth, orphaned files. */
export async function register(app: FastifyInstance, core: Core) {
  const usage = createStorageUsageService({ db: core.db, clock: core.clock, store: core.blobs.kind });
  const orphans = createOrphanCheck({ db: core.db, blobs: core.blobs, logger: core.logger });
  await app.register(storageUsageRoutes(usage, orphans));
  return { usage, orphans };
}
