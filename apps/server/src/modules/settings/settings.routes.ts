import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemSettings } from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { SettingsService } from './settings.service.ts';

export function settingsRoutes(service: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    const response = { 200: envelopeSchema(systemSettings) };
    app.get(
      '/api/system_setting',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['系统设置'],
          summary: '读取系统设置',
          description:
            '管理员（角色等级 100）。当前的系统设置：登录时的手机验证码模式 `phoneCodeMode`（auto 有手机号且配置了短信服务时需要、always 总是需要、never 从不需要）。',
          response,
        },
      },
      async () => ok(await service.read()),
    );
    app.post(
      '/api/system_setting',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['系统设置'],
          summary: '保存系统设置',
          description: '管理员（角色等级 100）。保存系统设置（手机验证码模式），返回保存后的设置。',
          body: systemSettings,
          response,
        },
      },
      async (req) => ok(await service.update(req.body)),
    );
  };
}
