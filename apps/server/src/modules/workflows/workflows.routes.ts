import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  appIdQuery,
  saveWorkflowWithRobotBody as saveWorkflowBody,
  workflowOrderBody,
  workflowRowWithRobot as workflowRow,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import type { WorkflowsService } from './workflows.service.ts';

const tags = ['工作流'];

export function workflowsRoutes(deps: { workflows: WorkflowsService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { workflows } = deps;
  return async (app) => {
    app.get(
      '/api/workflow',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '应用的工作流',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。按顺序列出应用 `appId` 的工作流（标签页）；Webhook/推送地址、密钥与机器人地址只给编辑者和管理员。',
          querystring: appIdQuery,
          response: { 200: envelopeSchema(z.array(workflowRow)) },
        },
      },
      async (req) => ok(await workflows.list(currentUser(req), req.query.appId, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/workflow',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '新建工作流',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。`contentType`：default 代码仓库（`repoType` git/svn 等与 `repoPath`、分支 `defaultBranch`、提交人筛选 `committers`）、package 安装包（建立时补上已发布的版本）、custom 自定义（通过推送接口接收记录）；可设机器人地址 `robotUrl` 与自动推送 `autoPush`。git/svn 仓库保存后立即开始第一次同步。仓库地址不被允许（协议、内网主机等）或机器人地址不是飞书/企业微信主机时 400。返回新工作流的 `id`。',
          body: saveWorkflowBody,
          response: { 200: envelopeSchema(z.object({ id: z.number() })) },
        },
      },
      async (req) => ok(await workflows.create(currentUser(req), req.body)),
    );
    app.post(
      '/api/workflow/update',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '编辑工作流',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。字段同新建，必须带 `id`；显示为 `***` 的仓库密码保持不变，`robotSecret` 不传则保持不变。换了仓库地址或分支时重新同步。工作流不存在 404；不属于 `appId` 400。',
          body: saveWorkflowBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        const { id } = req.body;
        if (id === undefined) throw AppError.badRequest('参数错误：id 必填');
        await workflows.update(currentUser(req), { ...req.body, id });
        return ok(null);
      },
    );
    app.post(
      '/api/workflow/update_order',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '调整工作流顺序',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。按 `id` 与从 1 开始的 `orderNo` 设置一个应用内各工作流的顺序；工作流不属于同一个应用时 400。',
          body: workflowOrderBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await workflows.updateOrder(currentUser(req), req.body);
        return ok(null);
      },
    );
    app.delete(
      '/api/workflow',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '删除工作流',
          description: '对该应用有编辑权限的用户或管理员（查看用户 10028）。按 `id` 删除工作流；工作流不存在 404。',
          querystring: z.object({ id: z.coerce.number().int().min(1) }),
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await workflows.remove(currentUser(req), req.query.id);
        return ok(null);
      },
    );
  };
}
