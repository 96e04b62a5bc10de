import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { mediaRoutes } from './media.routes.ts';

/** Icons, screenshots and videos: storing them and serving them by signed link (the service is in the core). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(
    mediaRoutes({
      media: core.shared.media,
      links: core.mediaLinks,
      uploads: core.shared.uploads,
      blobs: core.blobs,
      publicUrl: core.config.publicUrl,
    }),
  );
}
