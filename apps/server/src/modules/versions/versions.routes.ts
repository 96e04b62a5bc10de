import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appIdQuery, appVersionListQuery, appVersionRow, editVersionBody, simpleVersions } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';
import type { VersionsService } from './versions.service.ts';

const tags = ['版本'];

export function versionsRoutes(deps: { versions: VersionsService } & LinkDeps): FastifyPluginAsyncZod {
  const { versions } = deps;
  return async (app) => {
    app.get(
      '/api/app_versions',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '版本列表',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404「应用不存在或您没有该应用的权限」）。分页列出应用 `appId` 的版本（安装包），可按上传时间 `startTime`/`endTime`、上传人 `uploadBy`、平台 `nativePackageType` 筛选，每项带下载地址；返回 `data` 与 `total`。',
          querystring: appVersionListQuery,
          response: { 200: pagedEnvelopeSchema(appVersionRow) },
        },
      },
      async (req) => {
        const present = linksFor(req, deps);
        const { rows, total } = await versions.list(currentUser(req), req.query, present);
        return ok(rows, { total });
      },
    );
    app.post(
      '/api/app_version',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '编辑版本说明',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。修改版本 `id` 的更新说明 `description`；版本不属于应用 `appId` 时 404「版本不存在」。',
          body: editVersionBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await versions.editNote(currentUser(req), req.body);
        return ok(null);
      },
    );
    app.get(
      '/api/app_versions/simple',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '各类安装包的版本简表',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。按 ipa、apk、zip 分组列出应用的版本（ID、序号、版本号、构建号），供选择重签名、关联提交等使用。',
          querystring: appIdQuery,
          response: { 200: envelopeSchema(simpleVersions) },
        },
      },
      async (req) => ok(await versions.simple(currentUser(req), req.query.appId)),
    );
  };
}
