import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { versionChanges, versionChangesQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { readInstallDevice } from '../install/install-device.ts';
import type { AppsPolicy } from '../apps/apps.policy.ts';
import type { VersionChangesService } from './version-changes.service.ts';

const tags = ['版本'];

/** GET /api/version_changes: what changed between two builds (issue 19). */
export function changesRoutes(deps: { changes: VersionChangesService; policy: AppsPolicy }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/version_changes',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '两个版本之间的变化',
          description:
            '管理员或对该应用有编辑/查看权限的用户，可用 API 令牌。版本 `versionId` 相对 `baseVersionId`（默认：同平台的上一个版本）的变化：各仓库工作流中两次构建的来源提交之间的提交（按真实的提交历史），文档与资源工作流在两次构建之间的更新，以及绑定到该版本的快照。每个工作流最多列出最新的 200 条，`total` 为总数；`behind` 大于 0 表示两次构建的提交历史已分叉。`base=last_install`：与当前用户上次下载/安装的该平台版本比较（没有更早的则与上一版本比较）；`baseKind` 说明实际比较的是哪个版本，`lastInstall` 为当前用户上次下载的该平台较早版本（没有则为 null）。',
          querystring: versionChangesQuery,
          response: { 200: envelopeSchema(versionChanges) },
        },
      },
      async (req) => {
        const user = currentUser(req);
        const { appId: _, ...changes } = await deps.changes.forViewer(
          req.query,
          // The install page's device cookie, when this browser has one: its downloads are the user's too.
          { userId: user.userId, device: readInstallDevice(req) },
          (appId) => deps.policy.assertCanView(user, appId),
        );
        return ok(changes);
      },
    );
  };
}
