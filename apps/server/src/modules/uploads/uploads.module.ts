import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { uploadsRoutes } from './uploads.routes.ts';

/** Upload keys and multipart uploads to the file store (the uploads service is in the core: several modules admit). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(uploadsRoutes({ uploads: core.shared.uploads, publicUrl: core.config.publicUrl }));
}
