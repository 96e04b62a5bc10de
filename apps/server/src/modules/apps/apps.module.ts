import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { appDetailRoutes } from './app-detail.routes.ts';
import { createAppMembersRepository } from './app-members.repository.ts';
import { createAppsRepository } from './apps.repository.ts';
import { createAppDetailService } from './app-detail.service.ts';
import { createAppMembersService } from './app-members.service.ts';
import { appsRoutes } from './apps.routes.ts';
import { createAppsService } from './apps.service.ts';

/** The app list, an app's settings and its members (the per-app permit, apps.policy, is in the core). */
export async function register(app: FastifyInstance, core: Core) {
  const { clock, mediaLinks } = core;
  const apps = createAppsRepository(core.db);
  const members = createAppMembersRepository(core.db);
  const users = core.shared.users;
  const policy = core.shared.policy;
  const detail = createAppDetailService({
    apps,
    members,
    users,
    policy,
    box: core.box,
    clock,
    robotHosts: core.config.robotHosts,
    mediaLinks,
  });
  const membersService = createAppMembersService({
    apps,
    members,
    users,
    policy,
    clock,
  });
  await app.register(appsRoutes(createAppsService({ apps, mediaLinks })));
  await app.register(appDetailRoutes({ detail, members: membersService, publicUrl: core.config.publicUrl }));
  return { detail };
}
