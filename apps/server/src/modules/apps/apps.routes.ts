import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appListExtraInfo, appListItem, appListQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { ok } from '../../http/envelope.ts';
import type { AppsService } from './apps.service.ts';

const appListResponse = z.object({
  code: z.number(),
  msg: z.string(),
  data: z.array(appListItem),
  extraInfo: appListExtraInfo,
});

export function appsRoutes(service: AppsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/apps',
      {
        config: { access: 'user' },
        schema: {
          tags: ['应用'],
          summary: '应用列表',
          description:
            '登录用户。管理员看到所有应用，其他用户只看到自己有编辑或查看权限的应用。可按类型 `appType`、分类 `categoryId`、开发者（有编辑权限的用户）`userId`、名称 `appName`、只看收藏 `viewCollect` 筛选并排序（`pageSize` 默认 1000）。`extraInfo` 含总数、原生/Unity 数与各开发者的应用数。',
          querystring: appListQuery,
          response: { 200: appListResponse },
        },
      },
      async (req) => {
        const user = currentUser(req);
        const { rows, extraInfo } = await service.list({ userId: user.userId, isAdmin: user.isAdmin }, req.query);
        return ok(rows, { extraInfo });
      },
    );
  };
}
