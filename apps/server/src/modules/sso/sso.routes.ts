import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  jsapiConfig,
  jsapiConfigQuery,
  larkLoginBody,
  larkLoginUrlQuery,
  loginResult,
  qrLoginConfirmBody,
  qrLoginQuery,
  qrLoginStatus,
  signInDeniedBody,
  signInUrl,
  userIdentity,
  wecomLoginBody,
} from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { emptyEnvelope, envelopeSchema, ok } from '../../http/envelope.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import type { SsoService } from './sso.service.ts';
import { STATE_TTL_MS } from './sign-in-states.ts';

const tags = ['第三方登录'];
/** The cookie that ties a Lark/WeCom sign-in to the browser that started it (login CSRF). */
const BINDING_COOKIE = 'rs_signin';
/** The same for the screen waiting on a QR login (its own cookie, so a redirect sign-in started meanwhile does not end it). */
const QR_BINDING_COOKIE = 'rs_qrlogin';

function readBinding(request: FastifyRequest, cookie = BINDING_COOKIE): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookie) return decodeURIComponent(value.join('='));
  }
  return null;
}

function setBinding(reply: FastifyReply, request: FastifyRequest, binding: string | null, cookie = BINDING_COOKIE) {
  if (!binding) return;
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${cookie}=${encodeURIComponent(binding)}; Path=/api/; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}${secure}`,
  );
}

const meta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null });

export function ssoRoutes(deps: { sso: SsoService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { sso } = deps;
  return async (app) => {
    const base = (request: FastifyRequest) => publicBaseUrl(request, deps.publicUrl);

    app.get(
      '/api/user/lark_login_url',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '飞书授权登录地址',
          description:
            '公开（`bind_login` 需已登录）。返回飞书授权页地址与一次性 `state`，并以 Cookie 把这次登录绑定到发起它的浏览器。`mode`：success_login 网页登录（默认）、terminal_login 命令行登录（需本地端口 `port`）、bind_login 给当前用户绑定飞书账号。未配置飞书时 400「未配置飞书登录，请联系管理员」。',
          querystring: larkLoginUrlQuery,
          response: { 200: envelopeSchema(signInUrl) },
        },
      },
      async (req, reply) => {
        const issued = await sso.larkLoginUrl({ ...req.query, baseUrl: base(req), userId: req.user?.userId });
        setBinding(reply, req, issued.binding);
        return ok({ url: issued.url, state: issued.state, expiresAt: issued.expiresAt });
      },
    );

    app.post(
      '/api/user/lark_login',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '飞书登录',
          description:
            '公开。用飞书回调带回的 `code` 与 `state` 换取登录令牌（应答同账号密码登录）；不带 `state` 时为飞书客户端内免登拿到的 `code`。`state` 已失效或不是本浏览器发起的 400「登录请求已失效或不是从本页面发起的，请重新登录」；授权码无效 400；飞书账号已绑定其他用户 409。首次登录的飞书账号会自动创建用户。',
          body: larkLoginBody,
          response: { 200: envelopeSchema(loginResult) },
        },
      },
      async (req) => ok(await sso.larkLogin(req.body, readBinding(req), meta(req))),
    );

    app.post(
      '/api/user/sign_in_denied',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '取消第三方授权',
          description: '公开。用户在飞书或企业微信授权页点了拒绝：作废这次登录的 `state`。',
          body: signInDeniedBody,
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        await sso.denied(req.body.state);
        return ok(null);
      },
    );

    app.get(
      '/api/user/lark_qr_login',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '飞书扫码登录（发起与轮询）',
          description:
            '公开。不带 `qrId`：生成扫码登录的二维码地址与 `qrId`（绑定到本浏览器）；带 `qrId`：轮询状态 pending/done/denied/expired，手机确认后（done）一次性返回登录结果。未配置飞书时 400。',
          querystring: qrLoginQuery,
          response: {
            200: envelopeSchema(
              z.object({
                qrId: z.string(),
                url: z.string().nullable(),
                expiresAt: z.number().nullable(),
                status: qrLoginStatus,
                login: loginResult.nullable(),
              }),
            ),
          },
        },
      },
      async (req, reply) => {
        if (!req.query.qrId) {
          const { binding, ...started } = await sso.qrStart(base(req));
          setBinding(reply, req, binding, QR_BINDING_COOKIE);
          return ok({ ...started, status: 'pending' as const, login: null });
        }
        const polled = await sso.qrPoll(req.query.qrId, readBinding(req, QR_BINDING_COOKIE), meta(req));
        return ok({ qrId: req.query.qrId, url: null, expiresAt: null, ...polled });
      },
    );

    app.post(
      '/api/user/lark_qr_login',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '飞书扫码登录（手机确认）',
          description:
            '公开。手机扫码授权后，把飞书的 `code`（或拒绝时的 `error`）与二维码的 `state` 交回，等待中的电脑随后登录。二维码已失效或已用过 400「登录请求已失效或不是从本页面发起的，请重新登录」。',
          body: qrLoginConfirmBody,
          response: { 200: envelopeSchema(z.object({ status: qrLoginStatus })) },
        },
      },
      async (req) => ok(await sso.qrConfirm(req.body)),
    );

    app.get(
      '/api/user/lark_jsapi_config',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '飞书 JSAPI 签名',
          description:
            '公开。为本站页面 `url` 计算飞书客户端 JS 桥（免登）需要的签名；只能为本站页面签名（否则 400「只能为本站页面签名」）。未配置飞书时 400。',
          querystring: jsapiConfigQuery,
          response: { 200: envelopeSchema(jsapiConfig) },
        },
      },
      async (req) => ok(await sso.jsapiConfig(req.query.url, base(req))),
    );

    app.get(
      '/api/user/wecom_login_url',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '企业微信登录地址',
          description:
            '公开。返回企业微信扫码登录页地址与一次性 `state`（以 Cookie 绑定到本浏览器）。未配置企业微信时 400「未配置企业微信登录，请联系管理员」。',
          response: { 200: envelopeSchema(signInUrl) },
        },
      },
      async (req, reply) => {
        const issued = await sso.wecomLoginUrl(base(req));
        setBinding(reply, req, issued.binding);
        return ok({ url: issued.url, state: issued.state, expiresAt: issued.expiresAt });
      },
    );

    app.post(
      '/api/qywx_login',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '企业微信登录',
          description:
            '公开。用企业微信回调带回的 `code` 与 `state` 换取登录令牌（应答同账号密码登录）；首次登录自动创建用户。`state` 失效 400；授权码无效 400；不是本企业成员 400。',
          body: wecomLoginBody,
          response: { 200: envelopeSchema(loginResult) },
        },
      },
      async (req) => ok(await sso.wecomLogin(req.body, readBinding(req), meta(req))),
    );

    app.get(
      '/api/user/identities',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '我绑定的第三方账号',
          description: '登录用户。当前用户绑定的飞书/企业微信账号（平台、显示名、头像、绑定时间）。',
          response: { 200: envelopeSchema(z.array(userIdentity)) },
        },
      },
      async (req) => ok(await sso.identitiesOf(currentUser(req).userId)),
    );

    app.delete(
      '/api/user/identity',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '解除第三方账号绑定',
          description:
            '登录用户。解除自己绑定的飞书或企业微信账号（`provider`）；带 `userId` 解除他人的绑定只限管理员（否则 10028「您没有权限访问」）。这是该用户唯一的登录方式时 400「这是该用户唯一的登录方式：请先设置密码或绑定其他账号，再解除绑定」。',
          querystring: z.object({ provider: z.enum(['lark', 'wecom']), userId: z.coerce.number().int().optional() }),
          response: { 200: emptyEnvelope },
        },
      },
      async (req) => {
        const me = currentUser(req);
        const target = req.query.userId ?? me.userId;
        // Anyone may unlink their own accounts; only an admin someone else's.
        if (target !== me.userId && !me.isAdmin) throw AppError.noPermission();
        await sso.unbind(target, req.query.provider);
        return ok(null);
      },
    );
  };
}
