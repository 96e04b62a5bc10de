import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appCollectBody, appDetail, appIdQuery, appUser, bindAppBody, saveAppBody, userApp, userAppsQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import type { AppDetailService } from './app-detail.service.ts';
import type { AppMembersService } from './app-members.service.ts';

const tags = ['apps'];

export function appDetailRoutes(deps: { detail: AppDetailService; members: AppMembersService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { detail, members } = deps;
  return async (app) => {
    app.get('/api/app', { config: { access: 'user' }, schema: { tags, querystring: appIdQuery, response: { 200: envelopeSchema(appDetail) } } }, async (req) =>
      ok(await detail.detail(currentUser(req), req.query.appId, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post('/api/app', { config: { access: 'admin' }, schema: { tags, body: saveAppBody, response: { 200: envelopeSchema(z.object({ appId: z.number() })) } } }, async (req) =>
      ok(await detail.save(currentUser(req), req.body)),
    );
    app.post('/api/app_collect', { config: { access: 'user' }, schema: { tags, body: appCollectBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await members.collect(currentUser(req), req.body);
      return ok(null);
    });
    app.post('/api/app_cancel_collect', { config: { access: 'user' }, schema: { tags, body: appCollectBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await members.cancelCollect(currentUser(req), req.body);
      return ok(null);
    });
    app.get('/api/app_users', { config: { access: 'user' }, schema: { tags, querystring: appIdQuery, response: { 200: envelopeSchema(z.array(appUser)) } } }, async (req) =>
      ok(await members.appUsers(currentUser(req), req.query.appId)),
    );
    app.post('/api/user/bind_app', { config: { access: 'admin' }, schema: { tags, body: bindAppBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await members.bindApp(req.body);
      return ok(null);
    });
    app.get('/api/user_apps', { config: { access: 'user' }, schema: { tags, querystring: userAppsQuery, response: { 200: envelopeSchema(z.array(userApp)) } } }, async (req) =>
      ok(await members.userApps(currentUser(req), req.query.userId)),
    );
  };
}
