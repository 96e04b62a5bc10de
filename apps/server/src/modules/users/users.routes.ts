import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { saveUserBody, setUserRoleBody, userBrief, userIdQuery, userListQuery, userRow } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { UsersService } from './users.service.ts';

const tags = ['users'];

export function usersRoutes(service: UsersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/user', { config: { access: 'admin' }, schema: { tags, querystring: userListQuery, response: { 200: pagedEnvelopeSchema(userRow) } } }, async (req) => {
      const { rows, total } = await service.list(req.query);
      return ok(rows, { total });
    });
    app.post('/api/user', { config: { access: 'admin' }, schema: { tags, body: saveUserBody, response: { 200: envelopeSchema(z.object({ userId: z.number() })) } } }, async (req) =>
      ok(await service.save(req.body, { userId: currentUser(req).userId, sessionToken: req.sessionToken })),
    );
    app.delete('/api/user', { config: { access: 'admin' }, schema: { tags, querystring: userIdQuery, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.remove(req.query.userId, currentUser(req).userId);
      return ok(null);
    });
    app.post('/api/user_role', { config: { access: 'admin' }, schema: { tags, body: setUserRoleBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.setRole(req.body.userId, req.body.roleId);
      return ok(null);
    });
    app.get('/api/users', { config: { access: 'user' }, schema: { tags, response: { 200: envelopeSchema(z.array(userBrief)) } } }, async () => ok(await service.listBrief()));
    app.get('/api/username_list', { config: { access: 'user' }, schema: { tags, response: { 200: envelopeSchema(z.array(z.string())) } } }, async () =>
      ok(await service.usernames()),
    );
  };
}
