import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appVersionRow,
  getSignedUrlBody,
  getSignedUrlResult,
  multipartBody,
  multipartFinishResult,
  multipartStartResult,
  uploadAppBody,
} from '@release/contract';
import { z } from 'zod';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { publicBaseUrl, shareBaseUrl } from '../../http/public-url.ts';
import type { PackageRegistrationService } from '../versions/package-registration.service.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';
import { versionRow } from '../versions/version-row.ts';
import type { UploadsService } from './uploads.service.ts';

const tags = ['安装包上传'];

export function uploadsRoutes(
  deps: { uploads: UploadsService; registration: PackageRegistrationService } & LinkDeps,
): FastifyPluginAsyncZod {
  const { uploads, registration } = deps;
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

    const register = async (req: { body: z.infer<typeof uploadAppBody> } & Parameters<typeof currentUser>[0]) => {
      const version = await registration.register(currentUser(req), req.body, {
        baseUrl: shareBaseUrl(req, deps.publicUrl),
      });
      return ok(await versionRow(linksFor(req, deps), version));
    };
    const schema = { tags, body: uploadAppBody, response: { 200: envelopeSchema(appVersionRow) } };
    const description =
      '对该应用有编辑权限的用户或管理员（否则 10028）。把已完成分片上传的安装包 `s3Url` 登记为应用 `appId` 的新版本：解析安装包（版本号、Bundle ID、图标等），附上说明 `description` 与附件 `attachFileUrls`，通知订阅者，按 `chatEnv` 推送到测试群（DevTest）或正式群（PreFavTest，仅管理员）。带 `appVersionId` 时只修改该版本的说明并追加附件。Bundle ID 与应用已有的不符时 409 并在 `data` 中给出双方的 ID，确认后带 `allowOtherBundleId: true` 重试；不是可用的安装包 400；同一安装包已发布到其他应用 409；同一 `s3Url` 再次提交返回已登记的版本。';
    app.post(
      '/api/v2/upload_app',
      { config: { access: 'user' }, schema: { ...schema, summary: '登记安装包为新版本', description } },
      register,
    );
    // The older path takes the same payload (SPEC §7 lists it without one).
    app.post(
      '/api/upload_app',
      {
        config: { access: 'user' },
        schema: {
          ...schema,
          summary: '登记安装包为新版本（旧路径）',
          description: `与 POST /api/v2/upload_app 相同。${description}`,
        },
      },
      register,
    );
  };
}
