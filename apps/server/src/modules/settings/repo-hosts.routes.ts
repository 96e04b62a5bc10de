import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { repoHostRules } from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { RepoHostsService } from './repo-hosts.service.ts';

export const REPO_HOSTS_PATH = '/api/system_setting/repo_hosts';

/** 设置 → 系统 → 仓库主机 (admins): which hosts repository addresses may reach. */
export function repoHostsRoutes(service: RepoHostsService): FastifyPluginAsyncZod {
  return async (app) => {
    const response = { 200: envelopeSchema(repoHostRules) };
    const rules =
      'git/svn 工作流的仓库地址可以访问哪些主机，每项为主机名、`*.域名`、IP 或 CIDR 网段：默认拒绝内网、本机与链路本地地址，`allow` 中的主机解除这一拒绝；`deny` 中的主机总是拒绝，优先于 `allow`。';
    const tags = ['系统设置'];
    app.get(
      REPO_HOSTS_PATH,
      {
        config: { access: 'admin' },
        schema: { tags, summary: '读取仓库主机规则', description: `管理员（角色等级 100）。${rules}`, response },
      },
      async () => ok(await service.read()),
    );
    app.post(
      REPO_HOSTS_PATH,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '保存仓库主机规则',
          description: `管理员（角色等级 100）。整体替换规则。${rules}`,
          body: repoHostRules,
          response,
        },
      },
      async (req) => ok(await service.update(req.body)),
    );
  };
}
