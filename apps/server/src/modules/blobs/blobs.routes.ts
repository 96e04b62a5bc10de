import fsp from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import {
  attachmentDisposition,
  ifRangeHolds,
  noneMatch,
  parseByteRange,
  strongEtag,
  UPLOADED_CONTENT_HEADERS,
} from '../../http/byte-range.ts';
import { BlobError } from '../../storage/blob-store.ts';
import { FileBody } from '../../storage/file-body.ts';
import { LOCAL_DOWNLOAD_PATH, LOCAL_PART_PATH, type LocalBlobStore } from '../../storage/local-blob-store.ts';

const partQuery = z.object({
  uploadId: z.string().max(64),
  partNo: z.coerce.number().int().min(1).max(10_000),
  expires: z.coerce.number().int(),
  sig: z.string().max(128),
});
const fileQuery = z.object({
  key: z.string().max(512),
  expires: z.coerce.number().int(),
  name: z.string().max(255),
  type: z
    .string()
    .max(128)
    .regex(/^[\w.+-]+\/[\w.+-]+(; ?charset=[\w-]+)?$/),
  sig: z.string().max(128),
});

const linkExpired = '链接已过期或签名无效，请刷新页面后重试';

/** The local store's signed part-upload and download URLs (S3 serves its own). */
export function localBlobRoutes(store: LocalBlobStore): FastifyPluginAsyncZod {
  return async (app) => {
    // Part bodies are streamed to disk as they arrive; the store bounds each one to its slot.
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));

    app.put(
      LOCAL_PART_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags: ['存储'],
          summary: '上传一个分片',
          description:
            '公开，凭分片上传开始时给出的签名地址访问（仅本地存储；使用 S3 时分片直接传到 S3）。请求体为该分片的原始字节，应答头与 `data` 中带 etag，完成上传时要交回。签名无效或过期 10028「链接已过期或签名无效，请刷新页面后重试」；分片大小不符等 400。',
          querystring: partQuery,
        },
      },
      async (req, reply) => {
        if (!store.verifyPartUrl(req.query)) throw AppError.noPermission(linkExpired);
        try {
          const { etag } = await store.writePart(req.query.uploadId, req.query.partNo, req.raw);
          return reply
            .header('etag', `"${etag}"`)
            .header('access-control-expose-headers', 'ETag')
            .send({ code: 200, msg: 'success', data: { etag } });
        } catch (error) {
          if (error instanceof BlobError) throw AppError.badRequest(`分片上传失败：${error.message}`);
          throw error;
        }
      },
    );

    // Stored bytes as they are (never compressed on the fly): the length and entity tag are the file's, for resuming.
    app.get(
      LOCAL_DOWNLOAD_PATH,
      {
        config: { access: 'public' },
        compress: false,
        schema: {
          tags: ['存储'],
          summary: '下载文件',
          description:
            '公开，凭安装页或列表给出的签名下载地址访问（仅本地存储）。以附件形式返回原始文件，支持断点续传（Range、If-Range、ETag；范围无效 416）。签名无效或过期 10028；文件不存在或已删除 404。',
          querystring: fileQuery,
        },
      },
      async (req, reply) => {
        if (!store.verifyDownloadUrl(req.query)) throw AppError.noPermission(linkExpired);
        const file = store.filePath(req.query.key);
        const stat = await fsp.stat(file, { bigint: true }).catch(() => null);
        if (!stat?.isFile()) throw AppError.notFound('文件不存在或已被删除');
        const size = Number(stat.size);
        // Validators let browsers and Android's download manager resume (If-Range); a replaced object is a new inode and mtime.
        const etag = strongEtag([req.query.key, stat.size, stat.mtimeNs, stat.ino]);
        const lastModifiedMs = Number(stat.mtimeMs);
        reply
          .header('etag', etag)
          .header('last-modified', new Date(lastModifiedMs).toUTCString())
          .header('accept-ranges', 'bytes');
        if (noneMatch(req.headers['if-none-match'], etag)) return reply.status(304).send();
        // A stale If-Range (the object changed since the first bytes) gets the whole file, not a range of the new one.
        const range = ifRangeHolds(req.headers['if-range'], { etag, lastModifiedMs }, Date.now())
          ? parseByteRange(req.headers.range, size)
          : null;
        // Always a download (打开 of an html package has its own route); sandboxed anyway should a browser show it.
        reply
          .headers(UPLOADED_CONTENT_HEADERS)
          .header('content-type', req.query.type)
          .header('content-disposition', attachmentDisposition(req.query.name));
        if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
        if (!range) return reply.header('content-length', size).send(new FileBody(file, 0, size));
        return reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1)
          .send(new FileBody(file, range.start, range.end + 1));
      },
    );
  };
}
