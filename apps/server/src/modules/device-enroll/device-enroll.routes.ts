import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DEVICE_ENROLL_BODY_MAX_BYTES,
  deviceEnrollLink,
  deviceEnrollProfileQuery,
  deviceEnrollResult,
  deviceEnrollResultQuery,
  installEnrollBody,
} from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import { z } from 'zod';
import { CALLBACK_PATH, PROFILE_PATH, type DeviceEnrollService } from './device-enroll.service.ts';

/** Checked by the service (a missing or wrong `s` gets the link message, not a schema error). */
const deviceEnrollCallbackQuery = z.object({ s: z.string().max(200).optional() });

const tags = ['设备注册'];

export function deviceEnrollRoutes(deps: { enroll: DeviceEnrollService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { enroll } = deps;
  return async (app) => {
    app.post(
      '/api/device_enroll',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '登记我的 iPhone',
          description:
            '登录用户。返回一次性链接，在要登记的 iPhone 上用 Safari 打开并安装其中的 .mobileconfig 描述文件，即读取 UDID 并登记为该用户的设备（直接视为已确认）。',
          response: { 200: envelopeSchema(deviceEnrollLink) },
        },
      },
      async (req) => ok(await enroll.startForUser(currentUser(req), shareBaseUrl(req, deps.publicUrl))),
    );

    app.post(
      '/api/device_enroll/install',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '安装页登记设备',
          description:
            '公开，需带安装页的请求头 `app-version-token`（访客已通过安装密码，否则 10028「请先输入安装密码打开安装页」）。按下载地址 `url`（及版本 `versionId`）返回一次性登记链接；这样登记的设备需管理员确认。下载地址不存在 404；同一应用每小时最多 30 次，超过 429。',
          body: installEnrollBody,
          response: { 200: envelopeSchema(deviceEnrollLink) },
        },
      },
      async (req) => {
        const token = req.headers['app-version-token'];
        return ok(
          await enroll.startForInstall(
            req.body,
            typeof token === 'string' ? token : undefined,
            shareBaseUrl(req, deps.publicUrl),
          ),
        );
      },
    );

    // Opened by Safari on the device, without a session: the one-time challenge in the link is the permission.
    app.get(
      PROFILE_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '下载设备登记描述文件',
          description:
            '公开，凭链接中的一次性凭证 `c` 访问（由登记接口给出）。返回让 iOS 回传设备信息的 .mobileconfig 文件（配置了签名证书时已签名）。链接无效 404，已使用 409，已过期 400。',
          querystring: deviceEnrollProfileQuery,
        },
      },
      async (req, reply) => {
        const profile = await enroll.profile(req.query.c, shareBaseUrl(req, deps.publicUrl));
        return reply
          .header('content-type', 'application/x-apple-aspen-config')
          .header('content-disposition', 'attachment; filename="register-device.mobileconfig"')
          .header('cache-control', 'no-store')
          .send(profile.body);
      },
    );

    // Posted by iOS itself after the profile is installed; the challenge inside the signed answer is single-use.
    // Any body is read raw and bounded, so a wrong type gets our own clear answer instead of a parser's.
    await app.register(async (device) => {
      device.removeAllContentTypeParsers();
      device.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: DEVICE_ENROLL_BODY_MAX_BYTES },
        (_req, body, done) => done(null, body),
      );
      device.post(
        CALLBACK_PATH,
        {
          config: { access: 'public' },
          schema: {
            tags,
            summary: '设备回传 UDID',
            description:
              '公开，由 iOS 在安装描述文件后自动调用：请求体为设备签名的 plist（UDID、PRODUCT、VERSION、SERIAL、CHALLENGE），`s` 指明这次登记。登记设备后以 301 跳转到结果页。请求类型不对或内容无法读取 400；凭证无效 404；链接已使用 409。',
            querystring: deviceEnrollCallbackQuery,
          },
        },
        async (req, reply) => {
          const location = await enroll.receive(
            req.body,
            req.headers['content-type'],
            (req.query as { s?: string }).s,
            shareBaseUrl(req, deps.publicUrl),
          );
          return reply.code(301).header('location', location).header('cache-control', 'no-store').send();
        },
      );
    });

    app.get(
      '/api/device_enroll/result',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: '设备登记结果',
          description:
            '公开，凭 301 跳转链接中的签名访问。返回登记到的 UDID、机型、系统版本、序列号、结果（新登记或已存在）与来源应用。结果不存在或签名无效 404。',
          querystring: deviceEnrollResultQuery,
          response: { 200: envelopeSchema(deviceEnrollResult) },
        },
      },
      async (req) => ok(await enroll.result(req.query.id, req.query.sig)),
    );
  };
}
