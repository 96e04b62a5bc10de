import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createRolesRepository } from './roles.repository.ts';
import { rolesRoutes } from './roles.routes.ts';
import { createRolesService } from './roles.service.ts';

/** Roles and their levels; answers the service (main.ts seeds the default roles with it). */
export async function register(app: FastifyInstance, core: Core) {
  const roles = createRolesService({
    roles: createRolesRepository(core.db),
    users: core.shared.users,
    clock: core.clock,
  });
  await app.register(rolesRoutes(roles));
  return roles;
}
