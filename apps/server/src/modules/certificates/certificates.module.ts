import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { certificatesRoutes } from './certificates.routes.ts';

/**
 * Signing certificates, iOS and HarmonyOS (the services are in the core: re-signing loads iOS identities, the install
 * manifest of a HarmonyOS build is signed with a HarmonyOS one).
 */
export async function register(app: FastifyInstance, core: Core) {
  await app.register(certificatesRoutes(core.shared.certificates, core.shared.harmonyCertificates));
}
