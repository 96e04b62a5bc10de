import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { currentUser } from '../../http/auth-plugin.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { envelopeSchema, ok } from '../../http/envelope.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import { EXTENSION_OF, type SniffedType } from '../../lib/file-type.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { MEDIA_ROUTE } from '../../http/links.ts';
import type { MediaPurpose, MediaService } from './media.service.ts';
import type { MediaLinks } from '../../http/media-links.ts';

/** Icons and snapshots are small; packages go through the multipart upload flow instead. */
export const MEDIA_MAX_BYTES = 200 * 1024 * 1024;

const typeOfExtension = new Map(Object.entries(EXTENSION_OF).map(([type, ext]) => [ext, type as SniffedType]));

const signedQuery = z.object({
  expires: z.coerce.number().int().optional(),
  signature: z.string().max(128).optional(),
});
/** A media link without a valid signature: it was never shown to the caller, or it is older than its life. */
export const MEDIA_LINK_REFUSED = '图片或视频链接无效或已过期，请刷新页面后重试';

export function mediaRoutes(deps: {
  media: MediaService;
  links: MediaLinks;
  /** The uploader's quota of unfinished uploads (modules/uploads): a picture counts as one file. */
  uploads: Pick<UploadsService, 'admit'>;
  blobs: BlobStore;
  publicUrl?: string;
}): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024 } });

    app.post(
      '/api/upload',
      {
        config: { access: 'user' },
        schema: {
          tags: ['文件上传'],
          summary: '上传图标或截图',
          description:
            '登录用户，且需是管理员或至少一个应用的编辑者（否则 10028「没有上传权限：需要至少一个应用的编辑权限」）。multipart/form-data：先 `type`（app 为应用图标，只收 PNG/JPEG；media 为截图图片或视频；也可放在查询参数中），再 `file`，单个文件最大 200 MB。返回带签名的文件地址 `url`（供上传者预览；保存到应用或提交记录时只保留 `/api/media/<key>`）与存储键 `key`。类型不符 400「必须上传图片类型的文件」或「必须上传图片或视频类型的文件」。',
          querystring: z.object({ type: z.enum(['app', 'media']).optional() }),
          response: { 200: envelopeSchema(z.object({ url: z.string(), key: z.string() })) },
        },
      },
      async (req) => {
        if (!req.isMultipart()) throw AppError.badRequest('请使用 multipart/form-data 上传文件');
        await deps.uploads.admit(currentUser(req), { files: 1, bytes: 0 });
        const file = await req.file();
        if (!file) throw AppError.badRequest('没有收到文件');
        const field = file.fields.type;
        const fieldValue = field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : undefined;
        const purpose: MediaPurpose = (req.query.type ?? fieldValue) === 'media' ? 'media' : 'app';
        const { key } = await deps.media.upload(file.file, purpose, file.mimetype, currentUser(req).userId);
        // Signed, so the uploader's form shows it; the record that takes it keeps /api/media/<key>.
        return ok({ url: deps.links.forKey(key, publicBaseUrl(req, deps.publicUrl)), key });
      },
    );

    // No session (an <img> or <video> cannot send the token header): the link's signature is the permit.
    app.get(
      `${MEDIA_ROUTE}*`,
      {
        config: { access: 'public' },
        // Pictures and videos are compressed already; their length stays the stored file's.
        compress: false,
        schema: {
          summary: '读取图标或截图',
          description:
            '无需登录，但须带服务器签发的签名 `expires` 与 `signature`（应用列表、详情、提交记录、安装页等接口返回的链接已带上，页面链接有效至次日结束，推送图片 31 天）；无签名、签名不符或已过期 403「图片或视频链接无效或已过期，请刷新页面后重试」。键不合法或文件不存在时 404「文件不存在」。',
          tags: ['文件上传'],
          querystring: signedQuery,
        },
      },
      async (req, reply) => {
        const key = (req.params as { '*': string })['*'];
        if (!deps.media.isMediaKey(key)) throw AppError.notFound('文件不存在');
        if (!deps.links.verify(key, req.query)) throw AppError.noPermission(MEDIA_LINK_REFUSED);
        const stat = await deps.blobs.stat(key);
        if (!stat) throw AppError.notFound('文件不存在');
        const type = typeOfExtension.get(key.slice(key.lastIndexOf('.') + 1)) ?? 'application/octet-stream';
        return (
          reply
            .header('content-type', type)
            .header('content-length', stat.size)
            // The link ends: caches keep the answer no longer than it, and shared caches not at all.
            .header('cache-control', `private, max-age=${deps.links.secondsLeft(req.query.expires ?? 0)}, immutable`)
            .send(await deps.blobs.read(key))
        );
      },
    );
  };
}
