import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  appCollectBody,
  appDetail,
  appIdQuery,
  appUser,
  bindAppBody,
  saveAppBody,
  userApp,
  userAppsQuery,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import type { AppDetailService } from './app-detail.service.ts';
import type { AppMembersService } from './app-members.service.ts';

const tags = ['应用'];

export function appDetailRoutes(deps: {
  detail: AppDetailService;
  members: AppMembersService;
  publicUrl?: string;
}): FastifyPluginAsyncZod {
  const { detail, members } = deps;
  return async (app) => {
    app.get(
      '/api/app',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '应用详情',
          description:
            '管理员或对该应用有编辑/查看权限的用户。应用的设置、下载地址、安装密码、Bundle ID、编辑/查看用户、当前用户的收藏/订阅与未读数；群机器人地址只给编辑者与管理员。看不到该应用时 404「应用不存在或您没有该应用的权限」。',
          querystring: appIdQuery,
          response: { 200: envelopeSchema(appDetail) },
        },
      },
      async (req) => ok(await detail.detail(currentUser(req), req.query.appId, shareBaseUrl(req, deps.publicUrl))),
    );
    app.post(
      '/api/app',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '新建或编辑应用',
          description:
            '管理员（角色等级 100）。不带 `appId` 为新建（未给 `publicPath` 时随机生成），带 `appId` 为编辑；`distributeUsers` 整体替换应用的编辑/查看用户（同一用户后出现的权限为准，管理员不能设为查看用户）。安装密码须为 6–10 位且不是过于简单的数字；下载地址已被占用 409「下载链接重复，请重新设置」；群机器人地址只能是已配置的飞书/企业微信主机；应用不存在 404。',
          body: saveAppBody,
          response: { 200: envelopeSchema(z.object({ appId: z.number() })) },
        },
      },
      async (req) => ok(await detail.save(currentUser(req), req.body)),
    );
    app.post(
      '/api/app_collect',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '收藏或订阅应用',
          description:
            '登录用户，只能收藏/订阅自己看得到的应用（否则 404）。`appCollectType` 为 collect（收藏）或 subscribe（订阅新版本通知）；重复调用不改变结果。',
          body: appCollectBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await members.collect(currentUser(req), req.body);
        return ok(null);
      },
    );
    app.post(
      '/api/app_cancel_collect',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '取消收藏或订阅',
          description: '登录用户，只能操作自己看得到的应用（否则 404）。`appCollectType` 为 collect 或 subscribe。',
          body: appCollectBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await members.cancelCollect(currentUser(req), req.body);
        return ok(null);
      },
    );
    app.get(
      '/api/app_users',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '应用的授权用户',
          description: '管理员或对该应用有编辑/查看权限的用户。列出该应用的编辑与查看用户；看不到该应用时 404。',
          querystring: appIdQuery,
          response: { 200: envelopeSchema(z.array(appUser)) },
        },
      },
      async (req) => ok(await members.appUsers(currentUser(req), req.query.appId)),
    );
    app.post(
      '/api/user/bind_app',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: '给用户授权应用',
          description:
            '管理员（角色等级 100）。把一个用户对 `appIds` 中各应用的权限设为 `permit`（edit 编辑 / view 查看），`permit` 为 null 时取消授权。用户或应用不存在 404。',
          body: bindAppBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await members.bindApp(req.body);
        return ok(null);
      },
    );
    app.get(
      '/api/user_apps',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '用户有权限的应用',
          description:
            '登录用户。列出自己有编辑/查看权限的应用；带 `userId` 查询他人只限管理员（否则 10028「您没有权限访问」）。',
          querystring: userAppsQuery,
          response: { 200: envelopeSchema(z.array(userApp)) },
        },
      },
      async (req) => ok(await members.userApps(currentUser(req), req.query.userId)),
    );
  };
}
