import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { larkAppBody, larkAuthStatus, larkSyncCounts, LarkTaskMessages, syncCommentsBody } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { TasksSyncService } from './tasks-sync.service.ts';

const tags = ['tasks'];

/** SPEC §7 Tasks, the Lark side: each call checks the caller's permit on the app (view, or edit to create links). */
export function tasksSyncRoutes(configured: TasksSyncService | null): FastifyPluginAsyncZod {
  // Without a Lark app the calls exist and say so (the tracker works alone).
  const off = () => {
    throw AppError.badRequest(LarkTaskMessages.notConfigured);
  };
  const service: TasksSyncService = configured ?? { fieldOptions: async () => null, onChange: async () => undefined, larkAuth: off, createTaskList: off, createBitable: off, refresh: off, syncComments: off, baseChanged: async () => 0 };
  return async (app) => {
    app.post(
      '/api/lark_auth',
      { config: { access: 'user' }, schema: { tags, description: 'Whether the Lark app answers, and the app\'s task list and table links.', body: larkAppBody, response: { 200: envelopeSchema(larkAuthStatus) } } },
      async (req) => ok(await service.larkAuth(currentUser(req), req.body.appId)),
    );
    app.post(
      '/api/create_task_list',
      { config: { access: 'user' }, schema: { tags, description: 'Creates the app\'s Lark task list (edit permit) and stores larkTaskListUrl.', body: larkAppBody, response: { 200: envelopeSchema(larkAuthStatus) } } },
      async (req) => ok(await service.createTaskList(currentUser(req), req.body.appId)),
    );
    app.post(
      '/api/create_bitable',
      { config: { access: 'user' }, schema: { tags, description: 'Creates the app\'s Lark Bitable for bugs (edit permit) and stores larkTableUrl.', body: larkAppBody, response: { 200: envelopeSchema(larkAuthStatus) } } },
      async (req) => ok(await service.createBitable(currentUser(req), req.body.appId)),
    );
    app.post(
      '/api/lark_refresh',
      { config: { access: 'user' }, schema: { tags, description: 'Syncs the app\'s tasks and bugs with Lark now, both ways.', body: larkAppBody, response: { 200: envelopeSchema(larkSyncCounts) } } },
      async (req) => ok(await service.refresh(currentUser(req), req.body.appId)),
    );
    app.post(
      '/api/sync_comments',
      { config: { access: 'user' }, schema: { tags, description: 'Syncs one task\'s comments with Lark now, both ways.', body: syncCommentsBody, response: { 200: envelopeSchema(larkSyncCounts) } } },
      async (req) => ok(await service.syncComments(currentUser(req), req.body.taskGuid)),
    );
  };
}
