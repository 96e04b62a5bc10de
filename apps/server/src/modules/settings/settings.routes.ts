import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemSettings } from '@release/contract';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { SettingsService } from './settings.service.ts';

export function settingsRoutes(service: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    const response = { 200: envelopeSchema(systemSettings) };
    app.get('/api/system_setting', { config: { access: 'admin' }, schema: { tags: ['settings'], response } }, async () => ok(await service.read()));
    app.post('/api/system_setting', { config: { access: 'admin' }, schema: { tags: ['settings'], body: systemSettings, response } }, async (req) =>
      ok(await service.update(req.body)),
    );
  };
}
