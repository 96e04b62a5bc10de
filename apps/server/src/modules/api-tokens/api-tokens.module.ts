import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { apiTokensRoutes } from './api-tokens.routes.ts';

/** A user's API tokens (the service is in the core: sessions resolve tokens with it). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(apiTokensRoutes(core.shared.apiTokens));
}
