import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appIdQuery, saveWorkflowWithRobotBody as saveWorkflowBody, workflowOrderBody, workflowRowWithRobot as workflowRow } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import type { WorkflowsService } from './workflows.service.ts';

const tags = ['workflows'];

export function workflowsRoutes(deps: { workflows: WorkflowsService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { workflows } = deps;
  return async (app) => {
    app.get('/api/workflow', { config: { access: 'user' }, schema: { tags, querystring: appIdQuery, response: { 200: envelopeSchema(z.array(workflowRow)) } } }, async (req) =>
      ok(await workflows.list(currentUser(req), req.query.appId, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post('/api/workflow', { config: { access: 'user' }, schema: { tags, body: saveWorkflowBody, response: { 200: envelopeSchema(z.object({ id: z.number() })) } } }, async (req) =>
      ok(await workflows.create(currentUser(req), req.body)),
    );
    app.post('/api/workflow/update', { config: { access: 'user' }, schema: { tags, body: saveWorkflowBody, response: { 200: emptyEnvelope } } }, async (req) => {
      const { id } = req.body;
      if (id === undefined) throw AppError.badRequest('参数错误：id 必填');
      await workflows.update(currentUser(req), { ...req.body, id });
      return ok(null);
    });
    app.post('/api/workflow/update_order', { config: { access: 'user' }, schema: { tags, body: workflowOrderBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await workflows.updateOrder(currentUser(req), req.body);
      return ok(null);
    });
    app.delete('/api/workflow', { config: { access: 'user' }, schema: { tags, querystring: z.object({ id: z.coerce.number().int().min(1) }), response: { 200: emptyEnvelope } } }, async (req) => {
      await workflows.remove(currentUser(req), req.query.id);
      return ok(null);
    });
  };
}
