import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { installedBody, installStats, installStatsQuery, versionHolders, versionHoldersQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import type { InstallStatsService } from './install-stats.service.ts';

const tags = ['安装页'];

export function installStatsRoutes(stats: InstallStatsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/app_version/installed',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '记录一次下载',
          description:
            '公开，与安装页同样的访问条件（已登录的成员、`app-version-token` 请求头或开启的免密链接）。安装页在用户点击下载时发送：同一设备（登录用户，或安装页的设备标识 `device`）同一天对同一版本只计一次；登录用户的下载记在其名下。',
          body: installedBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        const token = req.headers['app-version-token'];
        await stats.downloaded(req.body, {
          viewer: req.user,
          token: typeof token === 'string' ? token : undefined,
          ip: req.ip,
          userAgent: req.headers['user-agent'],
        });
        return ok(null);
      },
    );
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
            '对该版本所属应用有编辑权限的用户或管理员（查看用户 10028，看不到该应用 404）。下载或安装过该版本的登录用户（匿名测试者只计数、不列名）与各设备类型、系统版本的次数。',
          querystring: versionHoldersQuery,
          response: { 200: envelopeSchema(versionHolders) },
        },
      },
      async (req) => ok(await stats.holders(currentUser(req), req.query.versionId)),
    );
  };
}
