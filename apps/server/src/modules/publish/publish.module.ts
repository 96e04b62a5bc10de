import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { directUploadRoutes } from './direct-upload.routes.ts';
import { createDirectUploadService } from './direct-upload.service.ts';
import { uploadAppRoutes } from './upload-app.routes.ts';

/**
 * Publishing a package as a version: registering an uploaded package (upload_app) and CI's one-request direct
 * upload. The registration service is in the core, as re-signing registers its output too.
 */
export async function register(app: FastifyInstance, core: Core) {
  const { uploads, registration, policy } = core.shared;
  const { maxPackageBytes } = core.config;
  await app.register(uploadAppRoutes({ registration, ...core.links }));
  const direct = createDirectUploadService({
    uploads,
    sessions: core.shared.uploadSessions,
    apps: core.shared.apps,
    versions: core.shared.versions,
    registration,
    policy,
    blobs: core.blobs,
    clock: core.clock,
    maxPackageBytes,
  });
  await app.register(directUploadRoutes({ direct, maxPackageBytes, ...core.links }));
}
