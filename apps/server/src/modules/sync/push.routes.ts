import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { customPushBody } from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { InboundService } from './inbound.service.ts';

/**
 * The push API of custom workflows: `POST /api/workflow/push/<token>` with `Authorization: Bearer <secret>`
 * (both shown to editors in the workflow modal); inbound.service.ts checks and stores the items.
 */
export function workflowPushRoutes(inbound: InboundService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/workflow/push/:token',
      {
        config: { access: 'public' },
        schema: {
          tags: ['工作流'],
          summary: '向自定义工作流推送记录',
          description:
            '公开，凭地址中的 token 与请求头 `Authorization: Bearer <密钥>` 访问（两者在工作流设置中给编辑者看），用于自定义工作流（及 JPS、wiki、其他类型的仓库工作流）。`items[].time` 为毫秒时间戳（13 位），秒会被拒绝（400）。以发送方的 `id` 识别条目：已存在的 `id` 被跳过，`created` 只计新条目，重试是安全的（同一 `id` 的新内容不会覆盖第一次的）。token 或密钥错误 401「推送凭证无效（token 或密钥错误）」；该工作流不接收推送 400。',
          params: z.object({ token: z.string().max(64) }),
          body: customPushBody,
          response: { 200: envelopeSchema(z.object({ received: z.number(), created: z.number() })) },
        },
      },
      async (req) => {
        const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
        return ok(await inbound.push(req.params.token, bearer, req.body.items));
      },
    );
  };
}
