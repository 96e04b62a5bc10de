import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { localBlobRoutes } from './blobs.routes.ts';

/** Signed file links served by this server, when files are on local disk (S3 serves its own). */
export async function register(app: FastifyInstance, core: Core) {
  if (core.blobs.kind === 'local') await app.register(localBlobRoutes(core.blobs));
}
