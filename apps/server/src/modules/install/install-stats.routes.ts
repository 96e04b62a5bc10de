import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { installStats, installStatsQuery, versionHolders, versionHoldersQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { InstallStatsService } from './install-stats.service.ts';

const tags = ['安装页'];

export function installStatsRoutes(stats: InstallStatsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/app_version/stats',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '安装统计',
          description:
            '对该应用有编辑/查看权限的用户或管理员（否则 404）。最近 `days` 天（默认 30）每天的下载与安装次数，以及每个版本的累计下载与安装次数（同一设备同一天只计一次）。',
          querystring: installStatsQuery,
          response: { 200: envelopeSchema(installStats) },
        },
      },
      async (req) => ok(await stats.ofApp(currentUser(req), req.query.appId, req.query.days)),
    );
    app.get(
      '/api/app_version/holders',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '谁装了这个版本',
          description:
            '对该版本所属应用有编辑/查看权限的用户或管理员（否则 404）。下载或安装过该版本的登录用户，每人每种设备（类型与系统版本）一行、附最近一次的时间（匿名测试者只计数、不列名），以及各设备类型、系统版本的次数。',
          querystring: versionHoldersQuery,
          response: { 200: envelopeSchema(versionHolders) },
        },
      },
      async (req) => ok(await stats.holders(currentUser(req), req.query.versionId)),
    );
  };
}
