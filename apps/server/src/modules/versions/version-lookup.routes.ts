import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { latestVersionQuery, latestVersionResult, versionExistsQuery, versionExistsResult } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { VersionLookupService } from './version-lookup.service.ts';
import { presenterFor, type LinkDeps } from './version-presenter.ts';

const tags = ['versions'];

/** GET /api/app_versions/latest and /exists: for in-app update prompts and CI pipelines (API tokens welcome). */
export function versionLookupRoutes(deps: { lookup: VersionLookupService } & LinkDeps): FastifyPluginAsyncZod {
  const { lookup } = deps;
  return async (app) => {
    app.get('/api/app_versions/latest', { config: { access: 'user' }, schema: { tags, querystring: latestVersionQuery, response: { 200: envelopeSchema(latestVersionResult) } } }, async (req) =>
      ok(await lookup.latest(currentUser(req), req.query, presenterFor(req, deps))),
    );
    app.get('/api/app_versions/exists', { config: { access: 'user' }, schema: { tags, querystring: versionExistsQuery, response: { 200: envelopeSchema(versionExistsResult) } } }, async (req) =>
      ok(await lookup.exists(currentUser(req), req.query)),
    );
  };
}
