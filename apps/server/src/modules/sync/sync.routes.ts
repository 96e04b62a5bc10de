import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { RepoSyncService } from './repo-sync.service.ts';

export function syncRoutes(sync: RepoSyncService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/workflow/sync',
      {
        config: { access: 'user' },
        schema: { tags: ['workflows'], description: 'Polls a git or svn workflow now (editors).', querystring: z.object({ id: z.coerce.number().int().min(1) }), response: { 200: envelopeSchema(z.object({ created: z.number(), error: z.string().nullable() })) } },
      },
      async (req) => ok(await sync.syncNow(currentUser(req), req.query.id)),
    );
  };
}
