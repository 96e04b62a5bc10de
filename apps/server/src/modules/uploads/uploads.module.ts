import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { directUploadRoutes } from './direct-upload.routes.ts';
import { createDirectUploadService } from './direct-upload.service.ts';
import { createUploadSessionsRepository } from './upload-sessions.repository.ts';
import { uploadsRoutes } from './uploads.routes.ts';

/** Package uploads through this server, and straight to the object store (direct upload). */
export async function register(app: FastifyInstance, core: Core) {
  const { uploads, registration, policy } = core.shared;
  const { maxPackageBytes } = core.config;
  await app.register(uploadsRoutes({ uploads, registration, ...core.links }));
  const direct = createDirectUploadService({
    uploads,
    sessions: createUploadSessionsRepository(core.db),
    apps: core.repos.apps,
    versions: core.repos.versions,
    registration,
    policy,
    blobs: core.blobs,
    clock: core.clock,
    maxPackageBytes,
  });
  await app.register(directUploadRoutes({ direct, maxPackageBytes, ...core.links }));
}
