import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appIdQuery, appVersionListQuery, appVersionRow, editVersionBody, simpleVersions } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import { presenterFor, type LinkDeps } from './version-presenter.ts';
import type { VersionsService } from './versions.service.ts';

const tags = ['versions'];

export function versionsRoutes(deps: { versions: VersionsService } & LinkDeps): FastifyPluginAsyncZod {
  const { versions } = deps;
  return async (app) => {
    app.get('/api/app_versions', { config: { access: 'user' }, schema: { tags, querystring: appVersionListQuery, response: { 200: pagedEnvelopeSchema(appVersionRow) } } }, async (req) => {
      const present = presenterFor(req, deps);
      const { rows, total } = await versions.list(currentUser(req), req.query, present);
      return ok(rows, { total });
    });
    app.post('/api/app_version', { config: { access: 'user' }, schema: { tags, body: editVersionBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await versions.editNote(currentUser(req), req.body);
      return ok(null);
    });
    app.get('/api/app_versions/simple', { config: { access: 'user' }, schema: { tags, querystring: appIdQuery, response: { 200: envelopeSchema(simpleVersions) } } }, async (req) =>
      ok(await versions.simple(currentUser(req), req.query.appId)),
    );
  };
}
