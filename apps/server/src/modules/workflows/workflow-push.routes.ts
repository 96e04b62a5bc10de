import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { customPushBody } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { CommitIngestService } from '../commit-logs/commit-ingest.service.ts';
import type { WorkflowsRepository } from './workflows.repository.ts';

const PUSHABLE_REPO_TYPES = new Set(['JPS', 'JPS_GAME', 'wiki', 'other']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The push API of custom workflows: `POST /api/workflow/push/<token>` with `Authorization: Bearer <secret>`
 * (both shown to editors in the workflow modal). Items are identified by the sender's id, so a retry is safe.
 */
export function workflowPushRoutes(deps: { workflows: WorkflowsRepository; ingest: CommitIngestService; box: SecretBox }): FastifyPluginAsyncZod {
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
        const workflow = await deps.workflows.findByWebhookToken(req.params.token);
        const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
        // One answer for an unknown address and a wrong secret: nothing to learn by probing.
        if (!workflow || !sameSecret(bearer, deps.box.open(workflow.webhook_secret))) throw AppError.unauthorized('推送凭证无效（token 或密钥错误）');
        const pushable = workflow.content_type === 'custom' || (workflow.content_type === 'default' && PUSHABLE_REPO_TYPES.has(workflow.repo_type ?? ''));
        if (!pushable) throw AppError.badRequest('该工作流不接收推送：请使用自定义工作流');
        const created = await deps.ingest.ingestCustom(workflow, req.body.items);
        return ok({ received: req.body.items.length, created });
      },
    );
  };
}
