import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { markMessageBody, messageListQuery, notificationRow } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { NotificationsService } from './notifications.service.ts';

const tags = ['通知'];

export function notificationsRoutes(service: NotificationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/messages',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '通知列表',
          description:
            '登录用户。当前用户自己的通知（如订阅应用的新版本），`current` 页码、`size` 每页条数（默认 100），`state` 按状态筛选（如 NOT_READ 未读）；返回 `data` 与 `total`。',
          querystring: messageListQuery,
          response: { 200: pagedEnvelopeSchema(notificationRow) },
        },
      },
      async (req) => {
        const { rows, total } = await service.list(currentUser(req).userId, req.query);
        return ok(rows, { total });
      },
    );
    app.post(
      '/api/message',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '标记通知',
          description:
            '登录用户，只改自己的通知。三种用法：`id` + `state: IGNORE` 忽略一条（忽略必须指定 `id`，否则 400）；`appId` + `state: READ` 把该应用的通知标为已读；只传 `state: READ` 把全部通知标为已读（带 `id` 时只标那一条）。',
          body: markMessageBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.mark(currentUser(req).userId, req.body);
        return ok(null);
      },
    );
  };
}
