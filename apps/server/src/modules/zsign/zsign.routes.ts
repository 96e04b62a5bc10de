import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zsignBody, zsignCertificate, zsignJob, zsignJobQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { presenterFor, type LinkDeps } from '../versions/version-presenter.ts';
import type { ZsignService } from './zsign.service.ts';

const tags = ['zsign'];

export function zsignRoutes(deps: { service: ZsignService } & LinkDeps): FastifyPluginAsyncZod {
  const { service } = deps;
  return async (app) => {
    app.post(
      '/api/zsign',
      {
        config: { access: 'user' },
        schema: {
          tags,
          description: 'Re-signs an ipa version with a certificate (editors of the app). Answers within 60 s: `status` done with the new `version`, failed with `error`, or pending/running — then poll `GET /api/zsign/job?id=`.',
          body: zsignBody,
          response: { 200: envelopeSchema(zsignJob) },
        },
      },
      async (req) => ok(await service.start(currentUser(req), req.body, presenterFor(req, deps))),
    );
    app.get('/api/zsign/job', { config: { access: 'user' }, schema: { tags, querystring: zsignJobQuery, response: { 200: envelopeSchema(zsignJob) } } }, async (req) =>
      ok(await service.status(currentUser(req), req.query.id, presenterFor(req, deps))),
    );
    app.get('/api/zsign/certs', { config: { access: 'user' }, schema: { tags, response: { 200: envelopeSchema(z.array(zsignCertificate)) } } }, async () => ok(await service.certificates()));
  };
}
