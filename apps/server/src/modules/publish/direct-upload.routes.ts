import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { directUploadFields, directUploadResult, isUploadedTogether } from '@release/contract';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import { linksFor, type LinkDeps } from '../../http/links.ts';
import { versionRow } from '../versions/version-row.ts';
import { DirectUploadMessages, type DirectUploadService, type ReceivedPackage } from './direct-upload.service.ts';
import { UploadMessages } from '../uploads/uploads.service.ts';
import { MAX_MODULE_FILES } from './harmony-module-set.ts';

/** The app a form names (`path` or `appId`), read when its file begins. */
const appRef = directUploadFields.pick({ appId: true, path: true });

/** Room for the form's text fields and boundaries beside the package itself. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

const description = [
  '对该应用有编辑权限的用户或管理员（否则 10028），通常用 API 令牌（请求头 `token` 或 `Authorization: Bearer rst_…`）。',
  'CI 一次请求上传并发布：multipart/form-data，在 `file`（安装包）之前给出 `path`（应用的下载地址）或 `appId`（也可写在查询参数中），',
  '可选 `note`（更新说明）、`commit`、`branch`、`chatEnv`（DevTest 测试群 | PreFavTest 正式群，仅管理员）、`allowOtherBundleId`（true 时允许与应用不同的 Bundle ID）。',
  'HarmonyOS 的多个模块（.hap / .hsp，同一应用的同一版本）可以各用一个 `file` 字段一起上传，合为一个版本（总大小不超过安装包上限）。',
  '文件直接流入存储，不在内存中缓冲。没有 path/appId 400，应用不存在 404，超过安装包大小上限 413，Bundle ID 不符 409，',
  '不是可用的安装包 400，未完成的上传超过配额 429。应答为新版本，另带 `appName`（应用名称）。docs/ci-pipelines.md 有 curl 示例。',
].join('');

function formError(message: string): AppError {
  return AppError.badRequest(`参数错误：${message}`);
}

export function directUploadRoutes(
  deps: { direct: DirectUploadService; maxPackageBytes: number } & LinkDeps,
): FastifyPluginAsyncZod {
  const { direct } = deps;
  return async (app) => {
    // Its own limits, apart from /api/upload's: one file up to MAX_PACKAGE_MB (+1 byte, so the service sees it is over).
    await app.register(multipart, {
      limits: {
        fileSize: deps.maxPackageBytes + 1,
        files: MAX_MODULE_FILES,
        fields: 20,
        fieldSize: 64 * 1024,
        parts: 20 + MAX_MODULE_FILES,
      },
    });

    app.post(
      '/api/upload_app/direct',
      {
        config: { access: 'user' },
        schema: {
          tags: ['安装包上传'],
          summary: '一次请求上传并发布（CI）',
          description,
          querystring: z.object({
            appId: z.coerce.number().int().min(1).optional(),
            path: z.string().trim().max(64).optional(),
          }),
          response: { 200: envelopeSchema(directUploadResult) },
        },
      },
      async (req, reply) => {
        if (!req.isMultipart()) throw AppError.badRequest(DirectUploadMessages.notMultipart);
        const declared = Number(req.headers['content-length']);
        if (declared > deps.maxPackageBytes + FORM_OVERHEAD_BYTES) {
          // Said up front: no byte of it is read.
          reply.header('connection', 'close');
          throw new AppError('tooLarge', UploadMessages.tooLarge(deps.maxPackageBytes));
        }
        const user = currentUser(req);
        const fields: Record<string, string> = {};
        const received: ReceivedPackage[] = [];
        const names: string[] = [];
        try {
          for await (const part of req.parts()) {
            if (part.type === 'field') {
              fields[part.fieldname] = String(part.value);
              continue;
            }
            if (part.fieldname !== 'file') throw formError(`未知的文件字段 ${part.fieldname}，安装包请用 file`);
            const ref = appRef.safeParse({
              appId: fields.appId ?? req.query.appId,
              path: fields.path ?? req.query.path,
            });
            if (!ref.success) throw formError(ref.error.issues[0]?.message ?? 'path');
            const appId = await direct.resolveApp(user, ref.data);
            names.push(part.filename || 'package');
            // Several files only as the modules of one HarmonyOS version; said before the second is read.
            if (names.length > 1 && !names.every(isUploadedTogether))
              throw AppError.badRequest(DirectUploadMessages.oneFile);
            const used = received.reduce((sum, file) => sum + file.fileSize, 0);
            received.push(await direct.receive(user, appId, names.at(-1) as string, part.file, used));
          }
        } catch (error) {
          for (const file of received) await direct.drop(file);
          // The request may still be sending: close the connection rather than read the rest.
          reply.header('connection', 'close');
          throw translate(error, deps.maxPackageBytes);
        }
        if (received.length === 0) throw AppError.badRequest(DirectUploadMessages.noFile);
        const parsed = directUploadFields.safeParse(fields);
        if (!parsed.success) {
          for (const file of received) await direct.drop(file);
          const issue = parsed.error.issues[0];
          throw formError(`${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
        }
        const { version, appName } = await direct.register(
          user,
          received,
          parsed.data,
          publicBaseUrl(req, deps.publicUrl),
        );
        return ok({ ...(await versionRow(linksFor(req, deps), version)), appName });
      },
    );
  };
}

/** The multipart plugin's own limit errors, in the house's words. */
function translate(error: unknown, maxPackageBytes: number): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return AppError.badRequest(DirectUploadMessages.oneFile);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return formError('字段过多');
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('tooLarge', UploadMessages.tooLarge(maxPackageBytes));
  return error;
}
