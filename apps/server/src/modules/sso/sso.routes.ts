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

const tags = ['sign-in'];
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
  reply.header('set-cookie', `${cookie}=${encodeURIComponent(binding)}; Path=/api/; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}${secure}`);
}

const meta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null });

export function ssoRoutes(deps: { sso: SsoService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { sso } = deps;
  return async (app) => {
    const base = (request: FastifyRequest) => publicBaseUrl(request, deps.publicUrl);

    app.get(
      '/api/user/lark_login_url',
      { config: { access: 'public' }, schema: { tags, querystring: larkLoginUrlQuery, response: { 200: envelopeSchema(signInUrl) } } },
      async (req, reply) => {
        const issued = await sso.larkLoginUrl({ ...req.query, baseUrl: base(req), userId: req.user?.userId });
        setBinding(reply, req, issued.binding);
        return ok({ url: issued.url, state: issued.state, expiresAt: issued.expiresAt });
      },
    );

    app.post(
      '/api/user/lark_login',
      { config: { access: 'public' }, schema: { tags, body: larkLoginBody, response: { 200: envelopeSchema(loginResult) } } },
      async (req) => ok(await sso.larkLogin(req.body, readBinding(req), meta(req))),
    );

    app.post('/api/user/sign_in_denied', { config: { access: 'public' }, schema: { tags, body: signInDeniedBody, response: { 200: emptyEnvelope } } }, async (req) => {
      await sso.denied(req.body.state);
      return ok(null);
    });

    app.get(
      '/api/user/lark_qr_login',
      {
        config: { access: 'public' },
        schema: {
          tags,
          querystring: qrLoginQuery,
          response: { 200: envelopeSchema(z.object({ qrId: z.string(), url: z.string().nullable(), expiresAt: z.number().nullable(), status: qrLoginStatus, login: loginResult.nullable() })) },
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
      { config: { access: 'public' }, schema: { tags, body: qrLoginConfirmBody, response: { 200: envelopeSchema(z.object({ status: qrLoginStatus })) } } },
      async (req) => ok(await sso.qrConfirm(req.body)),
    );

    app.get(
      '/api/user/lark_jsapi_config',
      { config: { access: 'public' }, schema: { tags, querystring: jsapiConfigQuery, response: { 200: envelopeSchema(jsapiConfig) } } },
      async (req) => ok(await sso.jsapiConfig(req.query.url, base(req))),
    );

    app.get('/api/user/wecom_login_url', { config: { access: 'public' }, schema: { tags, response: { 200: envelopeSchema(signInUrl) } } }, async (req, reply) => {
      const issued = await sso.wecomLoginUrl(base(req));
      setBinding(reply, req, issued.binding);
      return ok({ url: issued.url, state: issued.state, expiresAt: issued.expiresAt });
    });

    app.post(
      '/api/qywx_login',
      { config: { access: 'public' }, schema: { tags, body: wecomLoginBody, response: { 200: envelopeSchema(loginResult) } } },
      async (req) => ok(await sso.wecomLogin(req.body, readBinding(req), meta(req))),
    );

    app.get('/api/user/identities', { config: { access: 'user' }, schema: { tags, response: { 200: envelopeSchema(z.array(userIdentity)) } } }, async (req) =>
      ok(await sso.identitiesOf(currentUser(req).userId)),
    );

    app.delete(
      '/api/user/identity',
      { config: { access: 'user' }, schema: { tags, querystring: z.object({ provider: z.enum(['lark', 'wecom']), userId: z.coerce.number().int().optional() }), response: { 200: emptyEnvelope } } },
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
