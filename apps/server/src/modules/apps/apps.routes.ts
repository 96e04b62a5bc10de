import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appListExtraInfo, appListItem, appListQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { ok } from '../../http/envelope.ts';
import type { AppsService } from './apps.service.ts';

const appListResponse = z.object({ code: z.number(), msg: z.string(), data: z.array(appListItem), extraInfo: appListExtraInfo });

export function appsRoutes(service: AppsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/apps', { config: { access: 'user' }, schema: { tags: ['apps'], querystring: appListQuery, response: { 200: appListResponse } } }, async (req) => {
      const user = currentUser(req);
      const { rows, extraInfo } = await service.list({ userId: user.userId, isAdmin: user.isAdmin }, req.query);
      return ok(rows, { extraInfo });
    });
  };
}
