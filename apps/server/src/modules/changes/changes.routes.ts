import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { versionChanges, versionChangesQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
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
            '管理员或对该应用有编辑/查看权限的用户，可用 API 令牌。版本 `versionId` 相对 `baseVersionId`（默认：同平台的上一个版本）的变化：各仓库工作流中两次构建的来源提交之间的提交（按真实的提交历史），文档与资源工作流在两次构建之间的更新，以及绑定到该版本的快照。每个工作流最多列出最新的 200 条，`total` 为总数；`behind` 大于 0 表示两次构建的提交历史已分叉。',
          querystring: versionChangesQuery,
          response: { 200: envelopeSchema(versionChanges) },
        },
      },
      async (req) => {
        const { appId: _, ...changes } = await deps.changes.between(
          req.query.versionId,
          req.query.baseVersionId,
          (appId) => deps.policy.assertCanView(currentUser(req), appId),
        );
        return ok(changes);
      },
    );
  };
}
