import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  larkDocFollow,
  larkDocFollowsQuery,
  setLarkDocFollowsBody,
  wikiNode,
  wikiNodeListQuery,
  wikiSpaceList,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import type { LarkDocFollowsService } from './lark-doc-follows.service.ts';
import type { WikiService } from './wiki.service.ts';

/** SPEC §7 wiki/space/list and wiki/node/list (shapes ours), and the documents a wiki workflow follows. */
export function larkDocsRoutes(deps: { wiki: WikiService; follows: LarkDocFollowsService }): FastifyPluginAsyncZod {
  const { wiki, follows } = deps;
  return async (app) => {
    app.get(
      '/api/wiki/space/list',
      {
        config: { access: 'user' },
        schema: {
          tags: ['知识库'],
          summary: '知识库空间列表',
          description: '登录用户。飞书应用所在的全部知识库空间；未配置飞书时 `configured` 为 false。飞书接口失败 400。',
          response: { 200: envelopeSchema(wikiSpaceList) },
        },
      },
      async () => ok(await wiki.spaces()),
    );
    app.get(
      '/api/wiki/node/list',
      {
        config: { access: 'user' },
        schema: {
          tags: ['知识库'],
          summary: '知识库节点列表',
          description:
            '登录用户。知识库空间 `spaceId` 中 `parentNodeToken` 下一层的节点（不传为根节点）。未配置飞书 400；空间不存在或无权访问 404。',
          querystring: wikiNodeListQuery,
          response: { 200: envelopeSchema(z.array(wikiNode)) },
        },
      },
      async (req) => ok(await wiki.nodes(req.query.spaceId, req.query.parentNodeToken)),
    );
    app.get(
      '/api/workflow/lark_docs',
      {
        config: { access: 'user' },
        schema: {
          tags: ['工作流'],
          summary: '工作流关注的飞书文档',
          description:
            '管理员或对该应用有编辑/查看权限的用户（否则 404）。知识库类型工作流 `workflowId` 关注的飞书文档；不是知识库工作流 400；工作流不存在 404。',
          querystring: larkDocFollowsQuery,
          response: { 200: envelopeSchema(z.array(larkDocFollow)) },
        },
      },
      async (req) => ok(await follows.list(currentUser(req), req.query.workflowId)),
    );
    app.post(
      '/api/workflow/lark_docs',
      {
        config: { access: 'user' },
        schema: {
          tags: ['工作流'],
          summary: '设置关注的飞书文档',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。用 `sources`（文档、知识库或文件夹链接）整体替换知识库工作流关注的文档：新文档在飞书订阅变更事件，不再关注的取消订阅。链接无法识别、文档类型不支持或超过 200 个时 400；部分文档未能关注时 400 并列出原因（其余已保存）。',
          body: setLarkDocFollowsBody,
          response: { 200: envelopeSchema(z.array(larkDocFollow)) },
        },
      },
      async (req) => ok(await follows.replace(currentUser(req), req.body.workflowId, req.body.sources)),
    );
  };
}
