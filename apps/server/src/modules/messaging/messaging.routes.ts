import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deliveryListQuery, deliveryRow, myDeliveriesQuery, retryDeliveryBody, sendMessageBody, sendMultiCommitsBody, sendResult, sendTodayLogsBody } from '@release/contract';
import { z } from 'zod';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import type { DeliveryLogService } from './delivery-log.service.ts';
import type { MessagingService } from './messaging.service.ts';

const tags = ['messaging'];
const sent = { 200: envelopeSchema(sendResult) };

export function messagingRoutes(deps: { messaging: MessagingService; log: DeliveryLogService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { messaging, log } = deps;
  return async (app) => {
    app.post(
      '/api/send_lark_message',
      { config: { access: 'user' }, schema: { tags, description: 'Push an item or a package to Lark (group robot, or people through the app bot). Answers the queued deliveries.', body: sendMessageBody, response: sent } },
      async (req) => ok(await messaging.send(currentUser(req), 'lark', req.body, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/send_wecom_message',
      { config: { access: 'user' }, schema: { tags, description: 'Push an item or a package to a WeCom group robot (the workflow robot or the app’s dev/prod group).', body: sendMessageBody, response: sent } },
      async (req) => ok(await messaging.send(currentUser(req), 'wecom', req.body, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/workflow/send_multi_commits',
      { config: { access: 'user' }, schema: { tags, description: 'Chosen items (commitIds), or every shown item from startTime to endTime inclusive (all: true).', body: sendMultiCommitsBody, response: sent } },
      async (req) => ok(await messaging.sendMultiCommits(currentUser(req), req.body, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/workflow/send_today_logs',
      { config: { access: 'user' }, schema: { tags, description: "Send today's logs (SPEC §7): the items of [startDate, nextDate).", body: sendTodayLogsBody, response: sent } },
      async (req) => ok(await messaging.sendTodayLogs(currentUser(req), req.body, shareBaseUrl(req, deps.publicUrl))),
    );
    app.get('/api/deliveries', { config: { access: 'admin' }, schema: { tags, description: 'The delivery log, newest first.', querystring: deliveryListQuery, response: { 200: pagedEnvelopeSchema(deliveryRow) } } }, async (req) => {
      const { rows, total } = await log.list(req.query);
      return ok(rows, { total });
    });
    app.get('/api/deliveries/mine', { config: { access: 'user' }, schema: { tags, description: 'The caller’s own deliveries by id (to show the receiver’s answer).', querystring: myDeliveriesQuery, response: { 200: envelopeSchema(z.array(deliveryRow)) } } }, async (req) =>
      ok(await log.mine(currentUser(req), req.query.ids.split(',').map(Number))),
    );
    app.post('/api/delivery/retry', { config: { access: 'admin' }, schema: { tags, description: 'Send a failed delivery again.', body: retryDeliveryBody, response: { 200: envelopeSchema(deliveryRow) } } }, async (req) =>
      ok(await log.retry(req.body.id)),
    );
  };
}
