import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { InboundService } from './inbound.service.ts';

export function syncRoutes(inbound: InboundService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/workflow/sync',
      {
        config: { access: 'user' },
        schema: {
          tags: ['工作流'],
          summary: '立即同步仓库',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。立即拉取 git 或 svn 仓库工作流 `id` 的新提交（平时定时拉取），返回新增条数 `created` 与拉取失败的原因 `error`。工作流不存在 404；不是 git/svn 仓库工作流 400「只有 git 和 svn 仓库工作流可以同步」。',
          querystring: z.object({ id: z.coerce.number().int().min(1) }),
          response: { 200: envelopeSchema(z.object({ created: z.number(), error: z.string().nullable() })) },
        },
      },
      async (req) => ok(await inbound.syncNow(currentUser(req), req.query.id)),
    );
  };
}
