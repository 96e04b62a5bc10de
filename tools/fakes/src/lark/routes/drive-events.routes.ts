import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { authenticate, isPrincipal } from '../auth.ts';
import { fail, ok } from '../envelope.ts';
import type { LarkContext } from '../lark-context.ts';
import type { DriveFileType, EventDelivery, LarkUser } from '../lark-state.ts';

const FILE_TYPES: readonly DriveFileType[] = ['doc', 'docx', 'sheet', 'bitable', 'file', 'folder', 'slides'];
const FOLDER_EVENT = 'file.created_in_folder_v1';

export type DriveEventType =
  | 'drive.file.edit_v1'
  | 'drive.file.created_in_folder_v1'
  | 'drive.file.bitable_record_changed_v1'
  | 'drive.file.bitable_field_changed_v1';

export interface EmitDriveEventInput {
  eventType: DriveEventType;
  /** The subscribed file (for created_in_folder_v1: the new file; `folderToken` is the subscribed folder). */
  fileToken: string;
  folderToken?: string;
  /** open_id of the user who made the change (default: the first seeded user). */
  operatorOpenId?: string;
  /** Merged into the event body (e.g. table_id, action_list, revision). */
  extra?: Record<string, unknown>;
  appId?: string;
  url?: string;
  /** The document's text after this change (what docx raw_content answers from now on). */
  content?: string;
}

/** Plain text of docx documents, per fake (docx raw_content); a document never written reads as ''. */
const documentTexts = new WeakMap<LarkContext, Map<string, string>>();

function textsOf(ctx: LarkContext): Map<string, string> {
  let texts = documentTexts.get(ctx);
  if (!texts) {
    texts = new Map();
    documentTexts.set(ctx, texts);
  }
  return texts;
}

/** Sets what a document reads as, without an event (a document's text before anyone follows it). */
export function setDocumentText(ctx: LarkContext, fileToken: string, text: string): void {
  textsOf(ctx).set(fileToken, text);
}

function userIds(user: LarkUser | undefined): Record<string, string> {
  return user
    ? { open_id: user.openId, union_id: user.unionId, user_id: user.userId }
    : { open_id: '', union_id: '', user_id: '' };
}

/** Builds the event body of contract §F and pushes it, but only when the app subscribed to that file or folder. */
export async function emitDriveEvent(
  ctx: LarkContext,
  defaultAppId: string,
  input: EmitDriveEventInput,
): Promise<EventDelivery | { skipped: 'not_subscribed' }> {
  const appId = input.appId ?? defaultAppId;
  // The edit happens whether or not anyone is subscribed; only the push depends on a subscription.
  if (input.content !== undefined) setDocumentText(ctx, input.fileToken, input.content);
  const watched = input.eventType === 'drive.file.created_in_folder_v1' ? input.folderToken : input.fileToken;
  const subscribed = ctx.state.subscriptions.some((s) => s.appId === appId && s.fileToken === watched);
  if (!subscribed) return { skipped: 'not_subscribed' };
  const operator = userIds(
    input.operatorOpenId ? ctx.state.users.get(input.operatorOpenId) : [...ctx.state.users.values()][0],
  );
  const fileType = ctx.state.driveFiles.get(input.fileToken)?.type ?? 'docx';
  const updateTime = ctx.clock.nowSeconds();
  let event: Record<string, unknown>;
  switch (input.eventType) {
    case 'drive.file.edit_v1':
      event = {
        file_token: input.fileToken,
        file_type: fileType,
        operator_id_list: [operator],
        subscriber_id_list: [],
      };
      break;
    case 'drive.file.created_in_folder_v1':
      event = {
        file_type: fileType,
        file_token: input.fileToken,
        folder_token: input.folderToken,
        operator_id: operator,
        subscriber_ids: [],
      };
      break;
    case 'drive.file.bitable_record_changed_v1':
    case 'drive.file.bitable_field_changed_v1':
      event = {
        file_type: 'bitable',
        file_token: input.fileToken,
        table_id: '',
        revision: 1,
        operator_id: operator,
        action_list: [],
        subscriber_id_list: [],
        update_time: updateTime,
      };
      break;
  }
  return ctx.events.push({ eventType: input.eventType, event: { ...event, ...input.extra }, appId, url: input.url });
}

function caller(ctx: LarkContext, req: FakeRequest): { appId: string; isTenant: boolean } | FakeResponse {
  const principal = authenticate(ctx, req, ['tenant', 'user']);
  if (!isPrincipal(principal)) return principal;
  return { appId: principal.appId, isTenant: principal.kind === 'tenant' };
}

function subscribe(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const who = caller(ctx, req);
  if (!('appId' in who)) return who;
  const fileToken = req.params.file_token ?? '';
  const fileType = req.query.get('file_type') as DriveFileType | null;
  const eventType = req.query.get('event_type') ?? undefined;
  if (!fileType || !FILE_TYPES.includes(fileType))
    return fail(400, 1069602, `param error: file_type must be one of ${FILE_TYPES.join(', ')}`);
  if (fileType === 'folder' && eventType !== FOLDER_EVENT)
    return fail(400, 1069602, `param error: a folder subscription needs event_type=${FOLDER_EVENT}`);
  if (fileType !== 'folder' && eventType !== undefined)
    return fail(400, 1069602, 'param error: event_type is only for folders');
  const file = ctx.state.driveFiles.get(fileToken);
  if (!file) return fail(400, 1069604, 'document not found');
  if (file.type !== fileType)
    return fail(400, 1069602, `param error: ${fileToken} is a ${file.type}, not a ${fileType}`);
  if (!file.appCanManage && who.isTenant) return fail(403, 1069603, 'forbidden: the app cannot manage this file');
  if (!ctx.state.subscriptions.some((s) => s.appId === who.appId && s.fileToken === fileToken)) {
    ctx.state.subscriptions.push({ appId: who.appId, fileToken, fileType, eventType, at: ctx.clock.now() });
  }
  return ok({});
}

function getSubscribe(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const who = caller(ctx, req);
  if (!('appId' in who)) return who;
  const fileToken = req.params.file_token ?? '';
  if (!FILE_TYPES.includes(req.query.get('file_type') as DriveFileType))
    return fail(400, 1069602, 'param error: bad file_type');
  if (!ctx.state.driveFiles.has(fileToken)) return fail(400, 1069604, 'document not found');
  const found = ctx.state.subscriptions.some((s) => s.appId === who.appId && s.fileToken === fileToken);
  return found ? ok({ is_subscribe: true }) : fail(400, 1069605, 'not subscribed');
}

function deleteSubscribe(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const who = caller(ctx, req);
  if (!('appId' in who)) return who;
  const fileToken = req.params.file_token ?? '';
  if (!FILE_TYPES.includes(req.query.get('file_type') as DriveFileType))
    return fail(400, 1069602, 'param error: bad file_type');
  const before = ctx.state.subscriptions.length;
  ctx.state.subscriptions = ctx.state.subscriptions.filter(
    (s) => !(s.appId === who.appId && s.fileToken === fileToken),
  );
  return before === ctx.state.subscriptions.length ? fail(400, 1069605, 'not subscribed') : ok({});
}

/**
 * GET /open-apis/docx/v1/documents/:document_id/raw_content — the document's plain text (`data.content`).
 * Not in the contract; the real errors are 1770002 not found (HTTP 404) and 1770032 forBidden (HTTP 403).
 */
function rawContent(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const who = caller(ctx, req);
  if (!('appId' in who)) return who;
  const lang = req.query.get('lang');
  if (lang !== null && !['0', '1', '2'].includes(lang)) return fail(400, 1770001, 'invalid param: lang');
  const token = req.params.document_id ?? '';
  const file = ctx.state.driveFiles.get(token);
  if (file?.type !== 'docx') return fail(404, 1770002, 'not found');
  if (!file.appCanManage && who.isTenant) return fail(403, 1770032, 'forBidden');
  return ok({ content: textsOf(ctx).get(token) ?? '' });
}

export function driveEventRoutes(ctx: LarkContext): RouteDef[] {
  return [
    {
      name: 'drive.subscribe',
      method: 'POST',
      path: '/open-apis/drive/v1/files/:file_token/subscribe',
      handler: (req) => subscribe(ctx, req),
    },
    {
      name: 'drive.get_subscribe',
      method: 'GET',
      path: '/open-apis/drive/v1/files/:file_token/get_subscribe',
      handler: (req) => getSubscribe(ctx, req),
    },
    {
      name: 'docx.document.raw_content',
      method: 'GET',
      path: '/open-apis/docx/v1/documents/:document_id/raw_content',
      handler: (req) => rawContent(ctx, req),
    },
    {
      name: 'drive.delete_subscribe',
      method: 'DELETE',
      path: '/open-apis/drive/v1/files/:file_token/delete_subscribe',
      handler: (req) => deleteSubscribe(ctx, req),
    },
  ];
}
