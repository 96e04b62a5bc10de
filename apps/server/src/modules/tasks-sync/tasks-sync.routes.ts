import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { larkAppBody, larkAuthStatus, larkSyncCounts, LarkTaskMessages, syncCommentsBody } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { TasksSyncService } from './tasks-sync.service.ts';

const tags = ['任务'];

/** SPEC §7 Tasks, the Lark side: each call checks the caller's permit on the app (view, or edit to create links). */
export function tasksSyncRoutes(configured: TasksSyncService | null): FastifyPluginAsyncZod {
  // Without a Lark app the calls exist and say so (the tracker works alone).
  const off = () => {
    throw AppError.badRequest(LarkTaskMessages.notConfigured);
  };
  const service: TasksSyncService = configured ?? {
    fieldOptions: async () => null,
    onChange: async () => undefined,
    larkAuth: off,
    createTaskList: off,
    createBitable: off,
    refresh: off,
    syncComments: off,
    baseChanged: async () => 0,
  };
  return async (app) => {
    app.post(
      '/api/lark_auth',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '飞书任务连接状态',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。飞书应用能否连通，以及应用 `appId` 关联的飞书任务清单与多维表格地址。未配置飞书时 400「未配置飞书应用：请管理员设置 LARK_APP_ID 与 LARK_APP_SECRET」。',
          body: larkAppBody,
          response: { 200: envelopeSchema(larkAuthStatus) },
        },
      },
      async (req) => ok(await service.larkAuth(currentUser(req), req.body.appId)),
    );
    app.post(
      '/api/create_task_list',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '创建飞书任务清单',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。为应用创建飞书任务清单并保存其地址，之后任务双向同步。已关联 400「该应用已关联飞书任务清单」；未配置飞书 400。',
          body: larkAppBody,
          response: { 200: envelopeSchema(larkAuthStatus) },
        },
      },
      async (req) => ok(await service.createTaskList(currentUser(req), req.body.appId)),
    );
    app.post(
      '/api/create_bitable',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '创建飞书多维表格',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。为应用创建记录缺陷的飞书多维表格并保存其地址，之后缺陷双向同步。已关联 400「该应用已关联飞书多维表格」；未配置飞书 400。',
          body: larkAppBody,
          response: { 200: envelopeSchema(larkAuthStatus) },
        },
      },
      async (req) => ok(await service.createBitable(currentUser(req), req.body.appId)),
    );
    app.post(
      '/api/lark_refresh',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '立即与飞书同步',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。立即在本地与飞书之间双向同步应用的任务与缺陷，返回推送、拉取、导入、评论、附件与失败的条数。尚未关联飞书任务清单或多维表格 400；未配置飞书 400。',
          body: larkAppBody,
          response: { 200: envelopeSchema(larkSyncCounts) },
        },
      },
      async (req) => ok(await service.refresh(currentUser(req), req.body.appId)),
    );
    app.post(
      '/api/sync_comments',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '同步任务评论',
          description:
            '管理员或对该应用有编辑/查看权限的用户。立即与飞书双向同步任务 `taskGuid` 的评论，返回同步的条数；任务不存在或看不到 404；未配置飞书 400。',
          body: syncCommentsBody,
          response: { 200: envelopeSchema(larkSyncCounts) },
        },
      },
      async (req) => ok(await service.syncComments(currentUser(req), req.body.taskGuid)),
    );
  };
}
