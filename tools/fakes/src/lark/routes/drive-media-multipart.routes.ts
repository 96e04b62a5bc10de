import { deflateSync } from 'node:zlib';
import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { isRecord, ok } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import type { MediaUpload } from '../bitable-state.ts';
import { principalId } from './bitable.routes.ts';
import { auth, baseOf, mediaFail, mediaRoute, PARENT_TYPES, storeMedia } from './drive-media.routes.ts';

/** "平台固定以 4MB 的大小对素材进行分片" (upload_prepare): every block but the last is this long. */
export const MEDIA_BLOCK_SIZE = 4 * 1024 * 1024;
/** An upload id (and the blocks sent under it) is kept 24 hours. */
const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Adler-32 of the bytes, as Lark's `checksum` fields carry it (decimal). Taken from zlib (a zlib stream ends with the
 * Adler-32 of what it holds), so the fake does not share the server's own computation.
 */
export function adler32(data: Buffer): string {
  const stream = deflateSync(data, { level: 0 });
  return String(stream.readUInt32BE(stream.length - 4));
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const countOf = (text: string | undefined): number | null =>
  text !== undefined && /^\d+$/.test(text) ? Number(text) : null;

/** The caller's upload in progress: unknown or older than 24 h → 1061021, someone else's → 1062007. */
function uploadOf(ctx: LarkContext, req: FakeRequest, uploadId: unknown): MediaUpload {
  const principal = auth(ctx, req);
  const upload = typeof uploadId === 'string' ? ctx.bitable.mediaUploads.get(uploadId) : undefined;
  if (!upload || ctx.clock.now() - upload.prepared_at > UPLOAD_TTL_MS)
    throw mediaFail(400, 1061021, 'upload id expire.');
  if (upload.uploader !== principalId(principal)) throw mediaFail(400, 1062007, 'upload user not match.');
  return upload;
}

/** The length block `seq` must have: block_size, the remainder for the last one. */
const blockLength = (upload: MediaUpload, seq: number) =>
  seq === upload.block_num - 1 ? upload.size - seq * upload.block_size : upload.block_size;

/**
 * POST /open-apis/drive/v1/medias/upload_prepare (JSON): file_name (≤ 250), parent_type, parent_node, size →
 * upload_id, block_size (4 MB) and block_num. Only bitable upload points are backed (parent_node = app_token).
 */
function prepare(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = auth(ctx, req);
  const body = isRecord(req.body) ? req.body : {};
  const { file_name: name, parent_type: parentType, parent_node: parentNode, size } = body;
  if (
    typeof name !== 'string' ||
    !name ||
    [...name].length > 250 ||
    typeof parentType !== 'string' ||
    !PARENT_TYPES.has(parentType) ||
    typeof parentNode !== 'string' ||
    !parentNode ||
    !isCount(size) ||
    size === 0
  ) {
    throw mediaFail(400, 1061002, 'params error.');
  }
  if (!parentType.startsWith('bitable_')) throw mediaFail(400, 1061044, 'parent node not exist.');
  baseOf(ctx, parentNode, principal);
  const upload: MediaUpload = {
    upload_id: ctx.bitable.newUploadId(),
    name,
    parent_type: parentType,
    parent_node: parentNode,
    size,
    block_size: MEDIA_BLOCK_SIZE,
    block_num: Math.ceil(size / MEDIA_BLOCK_SIZE),
    uploader: principalId(principal),
    prepared_at: ctx.clock.now(),
    blocks: new Map(),
  };
  ctx.bitable.mediaUploads.set(upload.upload_id, upload);
  return ok({ upload_id: upload.upload_id, block_size: upload.block_size, block_num: upload.block_num });
}

/**
 * POST /open-apis/drive/v1/medias/upload_part (multipart): upload_id, seq (from 0), size, checksum (Adler-32, optional),
 * file. A block outside the upload → 1062011; its bytes not `size` long → 1062009; `size` not the block's length in the
 * 4 MB strategy → 1061002; a wrong checksum → 1062008. Sending a block again replaces it.
 */
function part(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const form = req.multipart;
  if (!form) throw mediaFail(400, 1061002, 'params error.');
  const upload = uploadOf(ctx, req, form.fields.upload_id);
  const seq = countOf(form.fields.seq);
  const size = countOf(form.fields.size);
  const file = form.files.find((f) => f.field === 'file');
  if (seq === null || size === null || !file) throw mediaFail(400, 1061002, 'params error.');
  if (seq >= upload.block_num) throw mediaFail(400, 1062011, 'block num out of bounds.');
  if (size !== file.data.length)
    throw mediaFail(400, 1062009, 'the actual size is inconsistent with the parameter declaration size.');
  if (size !== blockLength(upload, seq)) throw mediaFail(400, 1061002, 'params error.');
  const checksum = form.fields.checksum;
  if (checksum !== undefined && checksum !== adler32(file.data))
    throw mediaFail(400, 1062008, 'checksum param Invalid.');
  upload.blocks.set(seq, file.data);
  return ok({});
}

/** POST /open-apis/drive/v1/medias/upload_finish (JSON): upload_id, block_num → the file_token; a block missing → 1062010. */
function finish(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const body = isRecord(req.body) ? req.body : {};
  const upload = uploadOf(ctx, req, body.upload_id);
  if (!isCount(body.block_num) || body.block_num !== upload.block_num) throw mediaFail(400, 1061002, 'params error.');
  const blocks = Array.from({ length: upload.block_num }, (_, seq) => upload.blocks.get(seq));
  if (blocks.some((b) => b === undefined)) throw mediaFail(400, 1062010, 'block missing, please upload all blocks.');
  ctx.bitable.mediaUploads.delete(upload.upload_id);
  const data = Buffer.concat(blocks as Buffer[]);
  return ok({
    file_token: storeMedia(ctx, auth(ctx, req), {
      name: upload.name,
      parentType: upload.parent_type,
      parentNode: upload.parent_node,
      data,
    }),
  });
}

/** Drive media's multipart upload ("分片上传素材"), for files upload_all does not take (over 20 MB); 5 QPS each. */
export function mediaMultipartRoutes(ctx: LarkContext): RouteDef[] {
  return [
    mediaRoute('drive.media.upload_prepare', 'POST', '/open-apis/drive/v1/medias/upload_prepare', (req) =>
      prepare(ctx, req),
    ),
    mediaRoute('drive.media.upload_part', 'POST', '/open-apis/drive/v1/medias/upload_part', (req) => part(ctx, req)),
    mediaRoute('drive.media.upload_finish', 'POST', '/open-apis/drive/v1/medias/upload_finish', (req) =>
      finish(ctx, req),
    ),
  ];
}
