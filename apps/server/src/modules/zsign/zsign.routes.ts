import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zsignBody, zsignCertificate, zsignJob, zsignJobQuery } from '@release/contract';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';
import type { ZsignService } from './zsign.service.ts';

const tags = ['重签名'];

export function zsignRoutes(deps: { service: ZsignService } & LinkDeps): FastifyPluginAsyncZod {
  const { service } = deps;
  return async (app) => {
    app.post(
      '/api/zsign',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '重签名 ipa',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。用证书 `certId` 重新签名 ipa 版本 `appVersionId`，成功后生成该应用的新版本。最多等待约 50 秒：`status` 为 done 时带新版本 `version`，failed 时带原因 `error`，仍为 pending/running 时用 GET /api/zsign/job?id= 轮询进度。同一版本用同一证书及其当前描述文件再次重签名时，返回已有的任务与新版本（进行中的任务则继续等待它），不会再签一次；该新版本被删除或任务失败后才重新签名。版本或证书不存在 404；不是 ipa 400「只有 iOS 安装包（.ipa）可以重签名」；证书已过期 400。',
          body: zsignBody,
          response: { 200: envelopeSchema(zsignJob) },
        },
      },
      async (req) => ok(await service.start(currentUser(req), req.body, linksFor(req, deps))),
    );
    app.get(
      '/api/zsign/job',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '重签名任务进度',
          description:
            '对该应用有编辑权限的用户或管理员（查看用户 10028）。重签名任务 `id` 的状态、进度（0–100）与阶段，当前阶段已处理与总字节数（bytesDone/bytesTotal），完成时带新版本，失败时带中文原因。任务不存在 404「重签名任务不存在」。',
          querystring: zsignJobQuery,
          response: { 200: envelopeSchema(zsignJob) },
        },
      },
      async (req) => ok(await service.status(currentUser(req), req.query.id, linksFor(req, deps))),
    );
    app.get(
      '/api/zsign/certs',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '可用于重签名的证书',
          description:
            '登录用户。重签名弹窗可选的证书：名称、团队、主 Bundle ID、过期时间与描述文件覆盖的 App ID；不含私钥与设备。',
          response: { 200: envelopeSchema(z.array(zsignCertificate)) },
        },
      },
      async () => ok(await service.certificates()),
    );
  };
}
