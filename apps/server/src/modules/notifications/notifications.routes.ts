import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { markMessageBody, messageListQuery, notificationRow } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { NotificationsService } from './notifications.service.ts';

const tags = ['notifications'];

export function notificationsRoutes(service: NotificationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/messages', { config: { access: 'user' }, schema: { tags, querystring: messageListQuery, response: { 200: pagedEnvelopeSchema(notificationRow) } } }, async (req) => {
      const { rows, total } = await service.list(currentUser(req).userId, req.query);
      return ok(rows, { total });
    });
    app.post('/api/message', { config: { access: 'user' }, schema: { tags, body: markMessageBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.mark(currentUser(req).userId, req.body);
      return ok(null);
    });
  };
}
