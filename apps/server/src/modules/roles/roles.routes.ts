import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { roleIdQuery, roleListQuery, roleRow, saveRoleBody } from '@release/contract';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { RolesService } from './roles.service.ts';

const tags = ['角色'];

export function rolesRoutes(service: RolesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/roles',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '角色列表',
          description:
            '管理员（角色等级 100）。分页列出角色（`pageNo` 默认 1，`pageSize` 默认 10，最大 1000）；返回 `data` 与 `total`。',
          querystring: roleListQuery,
          response: { 200: pagedEnvelopeSchema(roleRow) },
        },
      },
      async (req) => {
        const { rows, total } = await service.list(req.query.pageNo, req.query.pageSize);
        return ok(rows, { total });
      },
    );
    app.post(
      '/api/role',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '新建或编辑角色',
          description:
            '管理员（角色等级 100）。不带 `roleId` 为新建，带 `roleId` 为编辑；`roleLevel` 取 0–100，100 为管理员。名称已存在 409「角色名称已存在」；角色不存在 404；降低等级会使系统没有管理员时 409「至少需要保留一个管理员」。',
          body: saveRoleBody,
          response: { 200: envelopeSchema(z.object({ roleId: z.number() })) },
        },
      },
      async (req) => ok(await service.save(req.body)),
    );
    app.delete(
      '/api/role',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '删除角色',
          description:
            '管理员（角色等级 100）。按 `roleId` 删除角色。内置管理员角色不能删除（409「内置管理员角色不能删除」）；还有用户使用的角色不能删除（409「该角色下还有用户，不能删除」）；角色不存在 404。',
          querystring: roleIdQuery,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.remove(req.query.roleId);
        return ok(null);
      },
    );
  };
}
