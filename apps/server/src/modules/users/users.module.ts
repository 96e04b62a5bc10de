import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { createUsersRepository } from './users.repository.ts';
import { usersRoutes } from './users.routes.ts';
import { createUsersService } from './users.service.ts';

/** User administration; answers the service (main.ts ensures the first admin with it). */
export async function register(app: FastifyInstance, core: Core) {
  const users = createUsersService({
    users: createUsersRepository(core.db),
    roles: core.shared.roles,
    sessions: core.shared.sessions,
    clock: core.clock,
  });
  await app.register(usersRoutes(users));
  return users;
}
