import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { repoHostRules } from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { RepoHostsService } from './repo-hosts.service.ts';

export const REPO_HOSTS_PATH = '/api/system_setting/repo_hosts';

/** 设置 → 系统 → 仓库主机 (admins): which hosts repository addresses may reach. */
export function repoHostsRoutes(service: RepoHostsService): FastifyPluginAsyncZod {
  return async (app) => {
    const response = { 200: envelopeSchema(repoHostRules) };
    const description = 'Hosts repository addresses may reach: allow lifts the refusal of private, loopback and link-local addresses; deny beats allow.';
    app.get(REPO_HOSTS_PATH, { config: { access: 'admin' }, schema: { tags: ['settings'], description, response } }, async () => ok(await service.read()));
    app.post(REPO_HOSTS_PATH, { config: { access: 'admin' }, schema: { tags: ['settings'], description, body: repoHostRules, response } }, async (req) => ok(await service.update(req.body)));
  };
}
