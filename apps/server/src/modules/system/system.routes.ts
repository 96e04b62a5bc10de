import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUrlReport } from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { PING_PATH, type PublicUrlCheckService } from './public-url-check.service.ts';

export function systemRoutes(check: PublicUrlCheckService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      PING_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags: ['系统'],
          summary: '服务探测',
          description: '公开。返回本部署的标识 `deploymentId`，供对外地址检查确认 PUBLIC_URL 指向的就是本服务。',
          response: { 200: envelopeSchema(z.object({ deploymentId: z.string() })) },
        },
      },
      async () => ok({ deploymentId: check.deploymentId }),
    );
    app.get(
      '/api/system/public_url_check',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['系统'],
          summary: '检查对外地址',
          description:
            '管理员（角色等级 100）。从服务端访问配置的 PUBLIC_URL：是否 HTTPS、能否访问、是否就是本部署、证书信息，以及发现的问题（中文）。iOS 安装需要 HTTPS 且证书可信。',
          response: { 200: envelopeSchema(publicUrlReport) },
        },
      },
      async () => ok(await check.check()),
    );
  };
}
