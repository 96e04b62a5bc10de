import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core.ts';
import { appDetailRoutes } from './app-detail.routes.ts';
import { createAppDetailService } from './app-detail.service.ts';
import { createAppMembersService } from './app-members.service.ts';
import { appsRoutes } from './apps.routes.ts';
import { createAppsService } from './apps.service.ts';

/** The app list, an app's settings and its members (the per-app permit, apps.policy, is in the core). */
export async function register(app: FastifyInstance, core: Core) {
  const { repos, clock, mediaLinks } = core;
  const policy = core.shared.policy;
  const detail = createAppDetailService({
    apps: repos.apps,
    members: repos.appMembers,
    users: repos.users,
    policy,
    box: core.box,
    clock,
    robotHosts: core.config.robotHosts,
    mediaLinks,
  });
  const members = createAppMembersService({
    apps: repos.apps,
    members: repos.appMembers,
    users: repos.users,
    policy,
    clock,
  });
  await app.register(appsRoutes(createAppsService({ apps: repos.apps, mediaLinks })));
  await app.register(appDetailRoutes({ detail, members, publicUrl: core.config.publicUrl }));
  return { detail };
}
