import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  currentUser as currentUserSchema,
  forgetPasswordBody,
  loginBody,
  loginOptions,
  loginResult,
  sendPhoneCodeBody,
  sendPhoneCodeResult,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import type { AuthService } from './auth.service.ts';

const tags = ['登录'];

export function authRoutes(service: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/login_options',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '登录方式',
          description:
            '公开。登录页需要的开关：是否启用飞书登录（及飞书应用 ID，供飞书客户端内免登）、是否启用企业微信登录、手机验证码模式（auto/always/never）与是否配置了短信服务。',
          response: { 200: envelopeSchema(loginOptions) },
        },
      },
      async () => ok(await service.loginOptions()),
    );

    app.post(
      '/api/user/login',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '账号密码登录',
          description:
            '公开。`password` 为客户端计算的 SHA-256 摘要（64 位十六进制）。成功返回 `token`、`roleLevel`、`userId`。需要手机验证码时（见登录方式），第一次不带 `phoneCode` 会以 400「请输入手机验证码」应答，再带上验证码重试。用户名或密码错误 400；同一账号 15 分钟内错误 10 次后 429「密码错误次数过多，请15分钟后再试」。',
          body: loginBody,
          response: { 200: envelopeSchema(loginResult) },
        },
      },
      async (req) => ok(await service.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null })),
    );

    app.post(
      '/api/user/logout',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '退出登录',
          description: '公开。使请求头中的登录令牌失效；没有令牌或令牌已失效时也应答成功。',
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        if (req.sessionToken) await service.logout(req.sessionToken);
        return ok(null);
      },
    );

    app.post(
      '/api/send_phone_code',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '发送手机验证码',
          description:
            '公开。给该用户名绑定的手机号发送验证码，`scene` 为 login（登录，默认）或 forget_password（找回密码）；返回打码后的手机号和有效期。账号未绑定手机号（或不存在）时 400「该账号未绑定手机号，请联系管理员重置密码」；60 秒内重复发送 429。',
          body: sendPhoneCodeBody,
          response: { 200: envelopeSchema(sendPhoneCodeResult) },
        },
      },
      async (req) => ok(await service.sendPhoneCode(req.body.username, req.body.scene)),
    );

    app.post(
      '/api/forget_password',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '找回密码',
          description:
            '公开。用手机验证码重设密码（`password` 为新密码的 SHA-256 摘要）；成功后该用户所有已登录的会话失效。验证码错误或过期 400，错误次数过多 429。',
          body: forgetPasswordBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await service.resetPassword(req.body);
        return ok(null);
      },
    );

    app.get(
      '/api/user/me',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '当前用户',
          description:
            '登录用户。返回当前令牌所属用户的 ID、用户名、角色名与角色等级、手机号和登录时间；令牌缺失或过期时 401。',
          response: { 200: envelopeSchema(currentUserSchema) },
        },
      },
      async (req) => {
        const user = currentUser(req);
        return ok({
          userId: user.userId,
          username: user.username,
          roleLevel: user.roleLevel,
          roleName: user.roleName,
          phone: user.phone,
          tokenTime: user.createTime,
        });
      },
    );
  };
}
