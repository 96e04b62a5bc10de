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
import { MEDIA_ROUTE, type MediaPurpose, type MediaService } from './media.service.ts';

/** Icons and snapshots are small; packages go through the multipart upload flow instead. */
export const MEDIA_MAX_BYTES = 200 * 1024 * 1024;

const typeOfExtension = new Map(Object.entries(EXTENSION_OF).map(([type, ext]) => [ext, type as SniffedType]));

export function mediaRoutes(deps: { media: MediaService; uploads: UploadsService; blobs: BlobStore; publicUrl?: string }): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024 } });

    app.post(
      '/api/upload',
      {
        config: { access: 'user' },
        schema: {
          tags: ['media'],
          description: 'multipart/form-data: `type` (app = icon, jpeg/png only; media = snapshot image or video), then `file`. `type` may also be a query parameter.',
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
        const { key } = await deps.media.upload(file.file, purpose, file.mimetype);
        return ok({ url: `${publicBaseUrl(req, deps.publicUrl)}${MEDIA_ROUTE}${key}`, key });
      },
    );

    app.get(`${MEDIA_ROUTE}*`, { config: { access: 'public' }, schema: { tags: ['media'] } }, async (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      if (!deps.media.isMediaKey(key)) throw AppError.notFound('文件不存在');
      const stat = await deps.blobs.stat(key);
      if (!stat) throw AppError.notFound('文件不存在');
      const type = typeOfExtension.get(key.slice(key.lastIndexOf('.') + 1)) ?? 'application/octet-stream';
      return reply
        .header('content-type', type)
        .header('content-length', stat.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(await deps.blobs.read(key));
    });
  };
}
