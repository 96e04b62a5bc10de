import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiTokenIdQuery, apiTokenListQuery, apiTokenRow, createApiTokenBody, createdApiToken } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { ApiTokensService } from './api-tokens.service.ts';

const tags = ['api-tokens'];

export function apiTokensRoutes(service: ApiTokensService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/api_tokens', { config: { access: 'user' }, schema: { tags, querystring: apiTokenListQuery, response: { 200: pagedEnvelopeSchema(apiTokenRow) } } }, async (req) => {
      const { rows, total } = await service.list(currentUser(req), req.query);
      return ok(rows, { total });
    });
    app.post('/api/api_token', { config: { access: 'user' }, schema: { tags, body: createApiTokenBody, response: { 200: envelopeSchema(createdApiToken) } } }, async (req) =>
      ok(await service.create(currentUser(req), req.body)),
    );
    app.delete('/api/api_token', { config: { access: 'user' }, schema: { tags, querystring: apiTokenIdQuery, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.revoke(currentUser(req), req.query.id);
      return ok(null);
    });
  };
}
