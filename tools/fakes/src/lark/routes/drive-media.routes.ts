import path from 'node:path';
import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { authenticate, isPrincipal, type Principal } from '../auth.ts';
import { principalId } from './bitable.routes.ts';
import type { DriveMedia } from '../bitable-state.ts';
import { fail, ok } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';

/** upload_all takes files up to 20 MB (`size` ≤ 20971520); larger ones need the multipart upload. */
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
export const PARENT_TYPES = new Set([
  'doc_image',
  'docx_image',
  'sheet_image',
  'doc_file',
  'docx_file',
  'sheet_file',
  'vc_virtual_background',
  'bitable_image',
  'bitable_file',
  'moments',
  'ccm_import_open',
]);
const MIME: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

export class MediaError extends Error {
  constructor(readonly response: FakeResponse) {
    super(String((response.body as { msg?: string }).msg));
  }
}
export const mediaFail = (status: number, code: number, msg: string) => new MediaError(fail(status, code, msg));

export function auth(ctx: LarkContext, req: FakeRequest): Principal {
  const principal = authenticate(ctx, req, ['tenant', 'user']);
  if (!isPrincipal(principal)) throw new MediaError(principal);
  return principal;
}

/** The base a bitable upload point names; the caller must be one of its collaborators. */
export function baseOf(ctx: LarkContext, appToken: string, principal: Principal) {
  const app = ctx.bitable.apps.get(appToken);
  if (!app) throw mediaFail(400, 1061044, 'parent node not exist.');
  if (!app.collaborators.has(principalId(principal))) throw mediaFail(403, 1061004, 'forbidden.');
  return app;
}

/**
 * POST /open-apis/drive/v1/medias/upload_all (multipart): file_name (≤ 250), parent_type, parent_node, size (must
 * match the bytes, ≤ 20 MB), file. Only bitable upload points are backed here: parent_node is the base's app_token.
 */
function uploadAll(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = auth(ctx, req);
  const form = req.multipart;
  if (!form) throw mediaFail(400, 1061002, 'params error.');
  const { file_name: name, parent_type: parentType, parent_node: parentNode, size: sizeText } = form.fields;
  const file = form.files.find((f) => f.field === 'file');
  if (
    !name ||
    [...name].length > 250 ||
    !parentType ||
    !PARENT_TYPES.has(parentType) ||
    !parentNode ||
    !sizeText ||
    !/^\d+$/.test(sizeText) ||
    !file
  )
    throw mediaFail(400, 1061002, 'params error.');
  const size = Number(sizeText);
  if (size > MEDIA_MAX_BYTES) throw mediaFail(400, 1061043, 'file size beyond limit.');
  if (size !== file.data.length)
    throw mediaFail(400, 1062009, 'the actual size is inconsistent with the parameter declaration size.');
  if (!parentType.startsWith('bitable_')) throw mediaFail(400, 1061044, 'parent node not exist.');
  baseOf(ctx, parentNode, principal);
  return ok({ file_token: storeMedia(ctx, principal, { name, parentType, parentNode, data: file.data }) });
}

/** A whole uploaded file (upload_all, or the blocks of a finished multipart upload) as drive media; its file_token. */
export function storeMedia(
  ctx: LarkContext,
  principal: Principal,
  file: { name: string; parentType: string; parentNode: string; data: Buffer },
): string {
  const media: DriveMedia = {
    file_token: ctx.bitable.newMediaToken(),
    name: file.name,
    size: file.data.length,
    mime: MIME[path.extname(file.name).toLowerCase()] ?? 'application/octet-stream',
    data: file.data,
    parent_type: file.parentType,
    parent_node: file.parentNode,
    uploader: principalId(principal),
    uploaded_at: ctx.clock.now(),
  };
  ctx.bitable.media.set(media.file_token, media);
  return media.file_token;
}

/** GET /open-apis/drive/v1/medias/:file_token/download: the bytes, for a collaborator of the file's base. */
function download(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = auth(ctx, req);
  const media = ctx.bitable.media.get(req.params.file_token ?? '');
  if (!media) throw mediaFail(404, 1061003, 'not found.');
  const app = ctx.bitable.apps.get(media.parent_node);
  if (!app) throw mediaFail(404, 1061007, 'file has been delete.');
  if (!app.collaborators.has(principalId(principal))) throw mediaFail(403, 1061004, 'forbidden.');
  return {
    status: 200,
    raw: media.data,
    contentType: media.mime,
    headers: { 'content-disposition': `attachment; filename="${encodeURIComponent(media.name)}"` },
  };
}

/** A drive media route: a MediaError thrown by `run` is its answer. */
export const mediaRoute = (
  name: string,
  method: string,
  routePath: string,
  run: (req: FakeRequest) => FakeResponse,
): RouteDef => ({
  name,
  method,
  path: routePath,
  handler: (req) => {
    try {
      return run(req);
    } catch (error) {
      if (error instanceof MediaError) return error.response;
      throw error;
    }
  },
});

export function driveMediaRoutes(ctx: LarkContext): RouteDef[] {
  const route = mediaRoute;
  return [
    route('drive.media.upload_all', 'POST', '/open-apis/drive/v1/medias/upload_all', (req) => uploadAll(ctx, req)),
    route('drive.media.download', 'GET', '/open-apis/drive/v1/medias/:file_token/download', (req) =>
      download(ctx, req),
    ),
  ];
}
