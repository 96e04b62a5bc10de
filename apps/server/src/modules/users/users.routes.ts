import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { saveUserBody, setUserRoleBody, userBrief, userIdQuery, userListQuery, userRow } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok, pagedEnvelopeSchema } from '../../http/envelope.ts';
import type { UsersService } from './users.service.ts';

const tags = ['用户'];

export function usersRoutes(service: UsersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/user',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '用户列表',
          description:
            '管理员（角色等级 100）。分页列出用户及其角色、手机号，`keyword` 按用户名筛选；返回 `data` 与 `total`。',
          querystring: userListQuery,
          response: { 200: pagedEnvelopeSchema(userRow) },
        },
      },
      async (req) => {
        const { rows, total } = await service.list(req.query);
        return ok(rows, { total });
      },
    );
    app.post(
      '/api/user',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '新建或编辑用户',
          description:
            '管理员（角色等级 100）。不带 `userId` 为新建（必须设置 `password`，即密码的 SHA-256 摘要），带 `userId` 为编辑（不带 `password` 则密码不变；改了密码则该用户其他会话失效）。用户名已存在 409「用户名已存在」；角色不存在 400；用户不存在 404；把最后一个管理员改成其他角色 409「至少需要保留一个管理员」。',
          body: saveUserBody,
          response: { 200: envelopeSchema(z.object({ userId: z.number() })) },
        },
      },
      async (req) =>
        ok(await service.save(req.body, { userId: currentUser(req).userId, sessionToken: req.sessionToken })),
    );
    app.delete(
      '/api/user',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '删除用户',
          description:
            '管理员（角色等级 100）。按 `userId` 删除用户。不能删除自己（409「不能删除自己」），也不能删除最后一个管理员（409「至少需要保留一个管理员」）；用户不存在 404。',
          querystring: userIdQuery,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.remove(req.query.userId, currentUser(req).userId);
        return ok(null);
      },
    );
    app.post(
      '/api/user_role',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '设置用户角色',
          description:
            '管理员（角色等级 100）。把用户改为 `roleId` 对应的角色。角色不存在 400，用户不存在 404，会使系统没有管理员时 409「至少需要保留一个管理员」。',
          body: setUserRoleBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.setRole(req.body.userId, req.body.roleId);
        return ok(null);
      },
    );
    app.get(
      '/api/users',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '用户简表',
          description: '登录用户。所有用户的 ID、用户名与角色等级，供选择应用的编辑/查看用户、推送对象等使用。',
          response: { 200: envelopeSchema(z.array(userBrief)) },
        },
      },
      async () => ok(await service.listBrief()),
    );
    app.get(
      '/api/username_list',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '用户名列表',
          description: '登录用户。所有用户的用户名（字符串数组）。',
          response: { 200: envelopeSchema(z.array(z.string())) },
        },
      },
      async () => ok(await service.usernames()),
    );
  };
}
