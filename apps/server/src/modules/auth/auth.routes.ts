import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser as currentUserSchema, forgetPasswordBody, loginBody, loginOptions, loginResult, sendPhoneCodeBody, sendPhoneCodeResult } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import type { AuthService } from './auth.service.ts';

const tags = ['auth'];

export function authRoutes(service: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/login_options', { config: { access: 'public' }, schema: { tags, response: { 200: envelopeSchema(loginOptions) } } }, async () =>
      ok(await service.loginOptions()),
    );

    app.post(
      '/api/user/login',
      { config: { access: 'public' }, schema: { tags, body: loginBody, response: { 200: envelopeSchema(loginResult) } } },
      async (req) => ok(await service.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null })),
    );

    app.post('/api/user/logout', { config: { access: 'public' }, schema: { tags, response: { 200: emptyEnvelope } } }, async (req) => {
      if (req.sessionToken) await service.logout(req.sessionToken);
      return ok(null);
    });

    app.post(
      '/api/send_phone_code',
      { config: { access: 'public' }, schema: { tags, body: sendPhoneCodeBody, response: { 200: envelopeSchema(sendPhoneCodeResult) } } },
      async (req) => ok(await service.sendPhoneCode(req.body.username, req.body.scene)),
    );

    app.post('/api/forget_password', { config: { access: 'public' }, schema: { tags, body: forgetPasswordBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await service.resetPassword(req.body);
      return ok(null);
    });

    app.get('/api/user/me', { config: { access: 'user' }, schema: { tags, response: { 200: envelopeSchema(currentUserSchema) } } }, async (req) => {
      const user = currentUser(req);
      return ok({ userId: user.userId, username: user.username, roleLevel: user.roleLevel, roleName: user.roleName, phone: user.phone, tokenTime: user.createTime });
    });
  };
}
