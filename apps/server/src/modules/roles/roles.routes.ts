import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { roleIdQuery, roleListQuery, roleRow, saveRoleBody } from '@release/contract';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { RolesService } from './roles.service.ts';

const tags = ['roles'];

export function rolesRoutes(service: RolesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/roles', { config: { access: 'admin' }, schema: { tags, querystring: roleListQuery, response: { 200: pagedEnvelopeSchema(roleRow) } } }, async (req) => {
      const { rows, total } = await service.list(req.query.pageNo, req.query.pageSize);
      return ok(rows, { total });
    });
    app.post('/api/role', { config: { access: 'admin' }, schema: { tags, body: saveRoleBody, response: { 200: envelopeSchema(z.object({ roleId: z.number() })) } } }, async (req) =>
      ok(await service.save(req.body)),
    );
    app.delete('/api/role', { config: { access: 'admin' }, schema: { tags, querystring: roleIdQuery, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.remove(req.query.roleId);
      return ok(null);
    });
  };
}
