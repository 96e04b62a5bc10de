import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { PING_PATH, type PublicUrlCheckService } from './public-url-check.service.ts';

const report = z.object({
  publicUrl: z.string().nullable(),
  https: z.boolean(),
  reachable: z.boolean(),
  sameDeployment: z.boolean(),
  certificate: z.object({ subject: z.string(), issuer: z.string(), validTo: z.number(), daysLeft: z.number(), trusted: z.boolean(), trustError: z.string().nullable() }).nullable(),
  problems: z.array(z.string()),
});

export function systemRoutes(check: PublicUrlCheckService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(PING_PATH, { config: { access: 'public' }, schema: { tags: ['system'], response: { 200: envelopeSchema(z.object({ deploymentId: z.string() })) } } }, async () =>
      ok({ deploymentId: check.deploymentId }),
    );
    app.get('/api/system/public_url_check', { config: { access: 'admin' }, schema: { tags: ['system'], response: { 200: envelopeSchema(report) } } }, async () => ok(await check.check()));
  };
}
