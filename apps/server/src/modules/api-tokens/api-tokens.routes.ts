import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiTokenIdQuery,
  apiTokenListQuery,
  apiTokenRow,
  createApiTokenBody,
  createdApiToken,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { ApiTokensService } from './api-tokens.service.ts';

const tags = ['API 令牌'];

export function apiTokensRoutes(service: ApiTokensService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/api_tokens',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'API 令牌列表',
          description:
            '登录用户。列出自己的 API 令牌（名称、前几位、创建/最近使用/过期/吊销时间，从不返回令牌本身）；带 `userId` 查看他人的只限管理员（否则 10028）。返回 `data` 与 `total`。',
          querystring: apiTokenListQuery,
          response: { 200: pagedEnvelopeSchema(apiTokenRow) },
        },
      },
      async (req) => {
        const { rows, total } = await service.list(currentUser(req), req.query);
        return ok(rows, { total });
      },
    );
    app.post(
      '/api/api_token',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '创建 API 令牌',
          description:
            '登录用户，必须用登录会话调用（用 API 令牌调用 10028「请登录后再创建令牌（不能用 API 令牌创建令牌）」）。为自己（管理员可为 `userId` 指定的用户）创建名为 `name` 的 `rst_…` 令牌，`expireDays`（1–3650）天后过期，不填则一直有效直到吊销。完整令牌只在本次应答中出现一次；令牌拥有其用户的全部权限。用户不存在 404。',
          body: createApiTokenBody,
          response: { 200: envelopeSchema(createdApiToken) },
        },
      },
      async (req) => ok(await service.create(currentUser(req), req.body)),
    );
    app.delete(
      '/api/api_token',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '吊销 API 令牌',
          description:
            '登录用户。吊销自己的令牌 `id`（管理员可吊销任何人的），之后用它调用接口 401。令牌不存在或不是自己的 404「令牌不存在」。',
          querystring: apiTokenIdQuery,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.revoke(currentUser(req), req.query.id);
        return ok(null);
      },
    );
  };
}
