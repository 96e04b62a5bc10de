import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  getSignedUrlBody,
  getSignedUrlResult,
  multipartBody,
  multipartFinishResult,
  multipartStartResult,
} from '@release/contract';
import { z } from 'zod';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import type { UploadsService } from './uploads.service.ts';

const tags = ['安装包上传'];

/** Upload keys and multipart uploads (a package becomes a version through modules/publish). */
export function uploadsRoutes(deps: { uploads: UploadsService; publicUrl?: string }): FastifyPluginAsyncZod {
  const { uploads } = deps;
  return async (app) => {
    app.post(
      '/api/get_signed_url',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '申请上传文件键',
          description:
            '登录用户。为一次发布申请存储键：安装包 `appFileName`（可选）与最多 20 个附件 `attachFileNames`；`scene: lark_attachment` 时附件键为 `lark_attachment/` 加 16 位随机字符。带 `appId` 时需对该应用有编辑权限（管理员不限），否则需至少一个应用的编辑权限（10028）；未完成的上传超过配额 429。',
          body: getSignedUrlBody,
          response: { 200: envelopeSchema(getSignedUrlResult) },
        },
      },
      async (req) => ok(await uploads.issueKeys(currentUser(req), req.body)),
    );

    app.post(
      '/api/multi_signed_url_upload',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: '分片上传（开始/完成）',
          description:
            '登录用户，只能操作自己申请的文件键（否则 400）。`functionName: start` 带 `fileKey` 与 `fileSize`：返回 `uploadId` 与每 5 MB 一个分片的签名地址 `uploadParamsList`（用 PUT 上传，保存应答的 etag）；超过安装包大小上限 400，超过未完成上传的配额 429。`functionName: finish` 带 `fileKey`、`uploadId` 与 `tags`（每片的 partNo 与 etag）：合并分片，缺片时 400 并指出缺少的分片；重复完成返回相同结果。',
          body: multipartBody,
          response: { 200: envelopeSchema(z.union([multipartStartResult, multipartFinishResult])) },
        },
      },
      async (req) => {
        const user = currentUser(req);
        const body = req.body;
        if (body.functionName === 'start')
          return ok(await uploads.start(user, body.fileKey, body.fileSize, publicBaseUrl(req, deps.publicUrl)));
        return ok(await uploads.finish(user.userId, body.fileKey, body.uploadId, body.tags));
      },
    );
  };
}
