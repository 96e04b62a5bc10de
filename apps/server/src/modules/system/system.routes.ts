import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUrlReport } from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { PING_PATH, type PublicUrlCheckService } from './public-url-check.service.ts';

export function systemRoutes(check: PublicUrlCheckService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(PING_PATH, { config: { access: 'public' }, schema: { tags: ['system'], response: { 200: envelopeSchema(z.object({ deploymentId: z.string() })) } } }, async () =>
      ok({ deploymentId: check.deploymentId }),
    );
    app.get('/api/system/public_url_check', { config: { access: 'admin' }, schema: { tags: ['system'], response: { 200: envelopeSchema(publicUrlReport) } } }, async () => ok(await check.check()));
  };
}
