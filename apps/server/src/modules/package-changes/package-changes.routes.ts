import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appPackageThresholdsQuery,
  PACKAGE_CHANGES_PATH,
  PACKAGE_THRESHOLDS_PATH,
  packageChanges,
  packageChangesQuery,
  packageThresholds,
  savePackageThresholdsBody,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { PackageChangesService } from './package-changes.service.ts';

const tags = ['版本'];

/** GET /api/version_package_changes and an app's thresholds (issue 19). */
export function packageChangesRoutes(deps: {
  packages: PackageChangesService;
  policy: AppsPolicy;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      PACKAGE_CHANGES_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '两个版本之间安装包的变化',
          description:
            '管理员或对该应用有编辑/查看权限的用户，可用 API 令牌。版本 `versionId` 相对 `baseVersionId`（默认：同平台的上一个版本）安装包本身的变化，按发布时解析并保存的信息计算（不重新读取安装包）：总大小与各部分大小的变化（变化最大的在前）、新增与移除的权限、最低系统版本、签名证书是否更换、新增与移除的框架和扩展。发布时没有保存这些信息的旧版本，`versionHasFacts` / `baseHasFacts` 为 false，`diff` 为 null。',
          querystring: packageChangesQuery,
          response: { 200: envelopeSchema(packageChanges) },
        },
      },
      async (req) => {
        const { appId: _, ...changes } = await deps.packages.between(
          req.query.versionId,
          req.query.baseVersionId,
          (appId) => deps.policy.assertCanView(currentUser(req), appId),
        );
        return ok(changes);
      },
    );
    app.get(
      PACKAGE_THRESHOLDS_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '安装包变化提醒',
          description:
            '管理员或对该应用有编辑/查看权限的用户。应用的安装包变化提醒：体积增长超过 `sizePercent` % 或 `sizeMb` MB（null 为不提醒）、新增敏感权限、签名证书更换、最低系统版本提高。',
          querystring: appPackageThresholdsQuery,
          response: { 200: envelopeSchema(packageThresholds) },
        },
      },
      async (req) => ok(await deps.packages.getThresholds(currentUser(req), req.query.appId)),
    );
    app.post(
      PACKAGE_THRESHOLDS_PATH,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '保存安装包变化提醒',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。之后发布的版本与同平台上一个版本相比超过任一提醒时，版本上显示「安装包提醒」，发布推送的第一行写明超过了哪些。',
          body: savePackageThresholdsBody,
          response: { 200: envelopeSchema(packageThresholds) },
        },
      },
      async (req) => ok(await deps.packages.saveThresholds(currentUser(req), req.body)),
    );
  };
}
