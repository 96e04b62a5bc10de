import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { latestVersionQuery, latestVersionResult, versionExistsQuery, versionExistsResult } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { VersionLookupService } from './version-lookup.service.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';

const tags = ['版本'];

/** GET /api/app_versions/latest and /exists: for in-app update prompts and CI pipelines (API tokens welcome). */
export function versionLookupRoutes(deps: { lookup: VersionLookupService } & LinkDeps): FastifyPluginAsyncZod {
  const { lookup } = deps;
  return async (app) => {
    app.get(
      '/api/app_versions/latest',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '某平台的最新版本',
          description:
            '管理员或对该应用有编辑/查看权限的用户，可用 API 令牌（应用内更新提示、CI）。按应用下载地址 `path` 与平台 `platform` 返回最新的版本，该平台还没有版本时 `data` 为 null。应用不存在或看不到 404。',
          querystring: latestVersionQuery,
          response: { 200: envelopeSchema(latestVersionResult) },
        },
      },
      async (req) => ok(await lookup.latest(currentUser(req), req.query, linksFor(req, deps))),
    );
    app.get(
      '/api/app_versions/exists',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '版本是否已发布',
          description:
            '管理员或对该应用有编辑/查看权限的用户，可用 API 令牌（CI 避免重复上传）。应用 `appId` 在平台 `platform` 上是否已有版本号 `appVersion`（及构建号 `build`）完全相同的版本，有则返回其 `appVersionId`。看不到该应用 404。',
          querystring: versionExistsQuery,
          response: { 200: envelopeSchema(versionExistsResult) },
        },
      },
      async (req) => ok(await lookup.exists(currentUser(req), req.query)),
    );
  };
}
