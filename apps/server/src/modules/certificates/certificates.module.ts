import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { certificatesRoutes } from './certificates.routes.ts';

/** Signing certificates (the service is in the core: re-signing loads identities with it). */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(certificatesRoutes(core.shared.certificates));
}
