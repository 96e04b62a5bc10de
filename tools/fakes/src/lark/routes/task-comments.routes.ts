import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { decodePageToken, paginate } from '../../shared/paging.ts';
import { randomChars } from '../../shared/ids.ts';
import type { Principal } from '../auth.ts';
import { isRecord, ok, readPageSize } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import {
  actorOf,
  bodyOf,
  findTask,
  guarded,
  idTypeOf,
  presentActor,
  taskAuth,
  taskBad,
  TaskError,
  taskForbidden,
  taskMissing,
} from '../task-common.ts';
import type { FakeTaskAttachment, FakeTaskComment } from '../task-state.ts';

const MAX_FILES = 5;
/** "每个附件尺寸不超过50MB" (Task v2 attachments/upload). */
export const TASK_ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;
const LINK_TTL_MS = 3 * 60_000;
const LINK_DOWNLOADS = 3;

function present(ctx: LarkContext, idType: string, c: FakeTaskComment): Record<string, unknown> {
  const { deleted: _deleted, ...rest } = c;
  return { ...rest, creator: presentActor(ctx, idType, c.creator) };
}

function content(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new TaskError(taskBad('content is required'));
  if ([...raw].length > 3000) throw new TaskError(taskBad('content is longer than 3000 characters'));
  return raw;
}

/** Adds a comment as `principal` (the route and the fake's "comment in Lark" hook). */
export function addComment(
  ctx: LarkContext,
  principal: Principal,
  taskGuid: string,
  text: unknown,
  replyTo?: unknown,
): FakeTaskComment {
  const task = findTask(ctx, taskGuid, actorOf(principal), false);
  if (
    replyTo !== undefined &&
    (typeof replyTo !== 'string' ||
      !ctx.tasks.comments.get(replyTo) ||
      ctx.tasks.comments.get(replyTo)?.resource_id !== task.guid)
  ) {
    throw new TaskError(taskBad('reply_to_comment_id is not a comment of this task'));
  }
  const now = String(ctx.clock.now());
  const comment: FakeTaskComment = {
    id: ctx.tasks.newCommentId(),
    content: content(text),
    creator: actorOf(principal),
    reply_to_comment_id: replyTo as string | undefined,
    created_at: now,
    updated_at: now,
    resource_type: 'task',
    resource_id: task.guid,
    deleted: false,
  };
  ctx.tasks.comments.set(comment.id, comment);
  return comment;
}

/** Edits or deletes a comment: only its author may (403 otherwise). */
export function ownComment(ctx: LarkContext, principal: Principal, id: string): FakeTaskComment {
  const comment = ctx.tasks.comments.get(id);
  if (!comment || comment.deleted) throw new TaskError(taskMissing('comment not found'));
  findTask(ctx, comment.resource_id, actorOf(principal), false);
  if (comment.creator.id !== actorOf(principal).id)
    throw new TaskError(taskForbidden('only the author may change a comment'));
  return comment;
}

function create(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const body = bodyOf(req);
  if (body.resource_type !== undefined && body.resource_type !== 'task')
    throw new TaskError(taskBad('resource_type must be task'));
  if (typeof body.resource_id !== 'string' || !body.resource_id)
    throw new TaskError(taskBad('resource_id is required'));
  return ok({
    comment: present(
      ctx,
      idTypeOf(req),
      addComment(ctx, principal, body.resource_id, body.content, body.reply_to_comment_id),
    ),
  });
}

function list(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const resource = req.query.get('resource_id');
  if (!resource) throw new TaskError(taskBad('resource_id is required'));
  if ((req.query.get('resource_type') ?? 'task') !== 'task') throw new TaskError(taskBad('resource_type must be task'));
  const direction = req.query.get('direction') ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') throw new TaskError(taskBad('direction must be asc or desc'));
  const size = readPageSize(req.query.get('page_size'), 100, 50);
  if (size === null) throw new TaskError(taskBad('page_size must be 1-100'));
  const scope = `comments|${resource}|${direction}`;
  const offset = decodePageToken(req.query.get('page_token'), scope);
  if (offset === null) throw new TaskError(taskBad('invalid page_token'));
  findTask(ctx, resource, actorOf(principal), false);
  const all = ctx.tasks.commentsOf(resource).map((c) => present(ctx, idTypeOf(req), c));
  return ok(paginate(direction === 'asc' ? all : all.reverse(), offset, size, scope));
}

function getOne(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const comment = ctx.tasks.comments.get(req.params.comment_id ?? '');
  if (!comment || comment.deleted) throw new TaskError(taskMissing('comment not found'));
  findTask(ctx, comment.resource_id, actorOf(principal), false);
  return ok({ comment: present(ctx, idTypeOf(req), comment) });
}

function patch(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const body = bodyOf(req);
  const fields = body.update_fields;
  if (!Array.isArray(fields) || fields.length !== 1 || fields[0] !== 'content')
    throw new TaskError(taskBad('update_fields must be ["content"]'));
  const comment = ownComment(ctx, principal, req.params.comment_id ?? '');
  comment.content = content(isRecord(body.comment) ? body.comment.content : undefined);
  comment.updated_at = String(Math.max(ctx.clock.now(), Number(comment.updated_at) + 1));
  return ok({ comment: present(ctx, idTypeOf(req), comment) });
}

function remove(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  ownComment(ctx, principal, req.params.comment_id ?? '').deleted = true;
  return ok({});
}

function presentAttachment(
  ctx: LarkContext,
  idType: string,
  a: FakeTaskAttachment,
  withUrl: boolean,
): Record<string, unknown> {
  const base = {
    guid: a.guid,
    file_token: a.file_token,
    name: a.name,
    size: a.size,
    resource: a.resource,
    uploader: presentActor(ctx, idType, a.uploader),
    is_cover: false,
    uploaded_at: a.uploaded_at,
  };
  if (!withUrl) return base;
  const key = randomChars(24);
  a.links.set(key, { expiresAt: ctx.clock.now() + LINK_TTL_MS, left: LINK_DOWNLOADS });
  return { ...base, url: `${ctx.baseUrl()}/fake-task-attachments/${a.guid}?key=${key}` };
}

/** POST /attachments/upload — multipart `resource_type`, `resource_id`, `file` (up to 5). */
function upload(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const form = req.multipart;
  if (!form) throw new TaskError(taskBad('multipart/form-data is required'));
  if ((form.fields.resource_type ?? 'task') !== 'task') throw new TaskError(taskBad('resource_type must be task'));
  const task = findTask(ctx, form.fields.resource_id ?? '', actorOf(principal), true);
  const files = form.files.filter((f) => f.field === 'file');
  if (!files.length || files.length > MAX_FILES) throw new TaskError(taskBad(`between 1 and ${MAX_FILES} files`));
  if (files.some((f) => f.data.length > TASK_ATTACHMENT_MAX_BYTES))
    throw new TaskError(taskBad('file size exceeds the limit of 50MB'));
  const items = files.map((f) => {
    const a: FakeTaskAttachment = {
      guid: ctx.tasks.newGuid(),
      file_token: ctx.tasks.newFileToken(),
      name: f.filename,
      size: f.data.length,
      data: f.data,
      resource: { type: 'task', id: task.guid },
      uploader: actorOf(principal),
      uploaded_at: String(ctx.clock.now()),
      deleted: false,
      links: new Map(),
    };
    ctx.tasks.attachments.set(a.guid, a);
    return presentAttachment(ctx, idTypeOf(req), a, false);
  });
  return ok({ items });
}

function listAttachments(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = taskAuth(ctx, req);
  const resource = req.query.get('resource_id') ?? '';
  findTask(ctx, resource, actorOf(principal), false);
  const size = readPageSize(req.query.get('page_size'), 100, 50);
  if (size === null) throw new TaskError(taskBad('page_size must be 1-100'));
  const scope = `attachments|${resource}`;
  const offset = decodePageToken(req.query.get('page_token'), scope);
  if (offset === null) throw new TaskError(taskBad('invalid page_token'));
  const all = [...ctx.tasks.attachments.values()].filter((a) => !a.deleted && a.resource.id === resource);
  const page = paginate(all, offset, size, scope);
  return ok({ ...page, items: page.items.map((a) => presentAttachment(ctx, idTypeOf(req), a, true)) });
}

function attachmentOf(ctx: LarkContext, req: FakeRequest, write: boolean): FakeTaskAttachment {
  const principal = taskAuth(ctx, req);
  const a = ctx.tasks.attachments.get(req.params.guid ?? '');
  if (!a || a.deleted) throw new TaskError(taskMissing('attachment not found'));
  findTask(ctx, a.resource.id, actorOf(principal), write);
  return a;
}

/** The download link of an attachment: valid 3 minutes and 3 downloads; refused with 403 after. */
function download(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const a = ctx.tasks.attachments.get(req.params.guid ?? '');
  const link = a?.links.get(req.query.get('key') ?? '');
  if (!a || a.deleted || !link || link.expiresAt <= ctx.clock.now() || link.left <= 0)
    return { status: 403, text: 'link expired', contentType: 'text/plain' };
  link.left -= 1;
  return {
    status: 200,
    raw: a.data,
    contentType: 'application/octet-stream',
    headers: { 'content-disposition': `attachment; filename="${encodeURIComponent(a.name)}"` },
  };
}

export function taskCommentRoutes(ctx: LarkContext): RouteDef[] {
  const route = (name: string, method: string, path: string, run: (req: FakeRequest) => FakeResponse): RouteDef => ({
    name,
    method,
    path,
    handler: (req) => guarded(() => run(req)),
  });
  const base = '/open-apis/task/v2';
  return [
    route('task.comment.create', 'POST', `${base}/comments`, (req) => create(ctx, req)),
    route('task.comment.list', 'GET', `${base}/comments`, (req) => list(ctx, req)),
    route('task.comment.get', 'GET', `${base}/comments/:comment_id`, (req) => getOne(ctx, req)),
    route('task.comment.patch', 'PATCH', `${base}/comments/:comment_id`, (req) => patch(ctx, req)),
    route('task.comment.delete', 'DELETE', `${base}/comments/:comment_id`, (req) => remove(ctx, req)),
    route('task.attachment.upload', 'POST', `${base}/attachments/upload`, (req) => upload(ctx, req)),
    route('task.attachment.list', 'GET', `${base}/attachments`, (req) => listAttachments(ctx, req)),
    route('task.attachment.get', 'GET', `${base}/attachments/:guid`, (req) =>
      ok({ attachment: presentAttachment(ctx, idTypeOf(req), attachmentOf(ctx, req, false), true) }),
    ),
    route('task.attachment.delete', 'DELETE', `${base}/attachments/:guid`, (req) => {
      attachmentOf(ctx, req, true).deleted = true;
      return ok({});
    }),
    route('task.attachment.download', 'GET', '/fake-task-attachments/:guid', (req) => download(ctx, req)),
  ];
}
