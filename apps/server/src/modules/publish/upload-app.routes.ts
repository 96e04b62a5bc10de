import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appVersionRow, uploadAppBody } from '@release/contract';
import type { z } from 'zod';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';
import { shareBaseUrl } from '../../http/public-url.ts';
import { versionRow } from '../versions/version-row.ts';
import type { PackageRegistrationService } from './package-registration.service.ts';

const tags = ['安装包上传'];

/** POST /api/v2/upload_app (and the older /api/upload_app): an uploaded package becomes a version. */
export function uploadAppRoutes(deps: { registration: PackageRegistrationService } & LinkDeps): FastifyPluginAsyncZod {
  const { registration } = deps;
  return async (app) => {
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
