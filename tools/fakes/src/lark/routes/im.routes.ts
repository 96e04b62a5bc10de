import { createHash } from 'node:crypto';
import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { randomChars, randomHex } from '../../shared/ids.ts';
import { authenticate, isPrincipal, type Principal } from '../auth.ts';
import { fail, isRecord, ok } from '../envelope.ts';
import { extractMentions, validateImContent } from '../im-content.ts';
import type { LarkContext } from '../lark-context.ts';
import type { ImMessage } from '../lark-state.ts';
import { isUpdateMulti } from '../message-content.ts';

const RECEIVE_ID_TYPES = ['open_id', 'union_id', 'user_id', 'email', 'chat_id'];
const UUID_WINDOW_MS = 3600_000;
const PATCH_WINDOW_MS = 14 * 24 * 3600_000;
export const PER_TARGET_QPS = 5;
export const IMAGE_LIMIT_BYTES = 10 * 1024 * 1024;

const imFail = (code: number, msg: string): FakeResponse => fail(400, code, msg);

/** The `data` of a message as the API returns it. */
export function presentMessage(ctx: LarkContext, message: ImMessage): Record<string, unknown> {
  const app = ctx.state.apps.get(message.appId);
  const echoed = extractMentions(ctx.state, message.msgType, message.content, app?.tenantKey ?? '');
  return {
    message_id: message.messageId,
    ...(message.rootId ? { root_id: message.rootId, parent_id: message.parentId } : {}),
    msg_type: message.msgType,
    create_time: String(message.createTime),
    update_time: String(message.updateTime),
    deleted: false,
    updated: message.updated,
    chat_id: message.chatId,
    sender: { id: message.appId, id_type: 'app_id', sender_type: 'app', tenant_key: app?.tenantKey ?? '' },
    body: { content: echoed.content },
    mentions: message.mentions,
  };
}

/** Per-target limit: 5 QPS to one user or one chat (shared by every bot in the chat). */
function targetLimited(ctx: LarkContext, target: string): boolean {
  return !ctx.limiter.hit(`im.target|${target}`, { perSecond: PER_TARGET_QPS }).allowed;
}

function resolveTarget(
  ctx: LarkContext,
  idType: string,
  id: string,
  appId: string,
): { chatId: string; target: string } | FakeResponse {
  if (idType === 'chat_id') {
    const chat = ctx.state.chats.get(id);
    if (!chat) return imFail(230034, `The receive_id is invalid: chat ${id} not found`);
    if (chat.dissolved) return imFail(232009, 'Your operation is not allowed because the chat has been dissolved');
    if (!chat.botIsMember) return imFail(230002, 'The bot is not in the chat');
    return { chatId: chat.chatId, target: chat.chatId };
  }
  const user = ctx.state.findUser(idType, id);
  if (!user) return imFail(230034, `The receive_id is invalid: no user with ${idType} ${id}`);
  if (user.status === 'resigned') return imFail(230029, 'The user has resigned');
  if (!user.canUseApp) return imFail(230013, 'Bot has NO availability to this user');
  const p2p = `oc_${createHash('sha256').update(`${appId}|${user.openId}`).digest('hex').slice(0, 32)}`;
  return { chatId: p2p, target: user.openId };
}

function tenantCaller(ctx: LarkContext, req: FakeRequest): Principal | FakeResponse {
  const principal = authenticate(ctx, req, ['tenant']);
  if (!isPrincipal(principal)) return principal;
  const app = ctx.state.apps.get(principal.appId);
  if (!app?.botEnabled) return imFail(230006, 'Bot ability is not activated');
  return principal;
}

function storeMessage(
  ctx: LarkContext,
  fields: Omit<ImMessage, 'messageId' | 'createTime' | 'updateTime' | 'updated' | 'mentions'>,
): ImMessage {
  const now = ctx.clock.now();
  const tenantKey = ctx.state.apps.get(fields.appId)?.tenantKey ?? '';
  const message: ImMessage = {
    ...fields,
    messageId: `om_${randomHex(16)}`,
    createTime: now,
    updateTime: now,
    updated: false,
    mentions: extractMentions(ctx.state, fields.msgType, fields.content, tenantKey).mentions,
  };
  ctx.state.imMessages.push(message);
  return message;
}

function checkBody(
  ctx: LarkContext,
  principal: Principal,
  body: Record<string, unknown>,
): FakeResponse | ImMessage | null {
  const invalid = validateImContent(body.msg_type, body.content);
  if (invalid) return imFail(invalid.code, invalid.msg);
  if (body.uuid !== undefined && (typeof body.uuid !== 'string' || body.uuid.length > 50))
    return imFail(230001, 'invalid request param: uuid is at most 50 characters');
  if (typeof body.uuid === 'string') {
    const since = ctx.clock.now() - UUID_WINDOW_MS;
    const duplicate = ctx.state.imMessages.find(
      (m) => m.appId === principal.appId && m.uuid === body.uuid && m.createTime > since,
    );
    if (duplicate) return duplicate;
  }
  return null;
}

function create(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = tenantCaller(ctx, req);
  if (!isPrincipal(principal)) return principal;
  const idType = req.query.get('receive_id_type') ?? '';
  if (!RECEIVE_ID_TYPES.includes(idType))
    return imFail(230001, `invalid request param: receive_id_type must be one of ${RECEIVE_ID_TYPES.join(', ')}`);
  if (!isRecord(req.body)) return imFail(230001, 'invalid request param: body must be a JSON object');
  const body = req.body;
  if (typeof body.receive_id !== 'string' || !body.receive_id)
    return imFail(230001, 'invalid request param: receive_id is required');
  const checked = checkBody(ctx, principal, body);
  if (checked && 'messageId' in checked) return ok(presentMessage(ctx, checked));
  if (checked) return checked;
  const target = resolveTarget(ctx, idType, body.receive_id, principal.appId);
  if (!('chatId' in target)) return target;
  if (targetLimited(ctx, target.target)) return imFail(230020, 'This operation triggers the frequency limit');
  const message = storeMessage(ctx, {
    appId: principal.appId,
    chatId: target.chatId,
    receiveIdType: idType,
    receiveId: body.receive_id,
    msgType: String(body.msg_type),
    content: String(body.content),
    uuid: typeof body.uuid === 'string' ? body.uuid : undefined,
  });
  return ok(presentMessage(ctx, message));
}

function reply(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = tenantCaller(ctx, req);
  if (!isPrincipal(principal)) return principal;
  const parent = ctx.state.imMessages.find((m) => m.messageId === req.params.message_id);
  if (!parent) return imFail(230001, `invalid request param: message ${req.params.message_id ?? ''} not found`);
  if (!isRecord(req.body)) return imFail(230001, 'invalid request param: body must be a JSON object');
  const checked = checkBody(ctx, principal, req.body);
  if (checked && 'messageId' in checked) return ok(presentMessage(ctx, checked));
  if (checked) return checked;
  if (targetLimited(ctx, parent.chatId)) return imFail(230020, 'This operation triggers the frequency limit');
  const message = storeMessage(ctx, {
    appId: principal.appId,
    chatId: parent.chatId,
    receiveIdType: null,
    receiveId: null,
    msgType: String(req.body.msg_type),
    content: String(req.body.content),
    uuid: typeof req.body.uuid === 'string' ? req.body.uuid : undefined,
    rootId: parent.rootId ?? parent.messageId,
    parentId: parent.messageId,
  });
  const data = presentMessage(ctx, message);
  if (req.body.reply_in_thread === true) data.thread_id = `omt_${randomHex(8)}`;
  return ok(data);
}

function patch(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = tenantCaller(ctx, req);
  if (!isPrincipal(principal)) return principal;
  const message = ctx.state.imMessages.find((m) => m.messageId === req.params.message_id);
  if (!message) return imFail(230001, `invalid request param: message ${req.params.message_id ?? ''} not found`);
  if (message.msgType !== 'interactive')
    return imFail(230001, 'invalid request param: only card messages can be updated');
  if (message.appId !== principal.appId)
    return imFail(230027, 'Lack of necessary permissions: the card was sent by another identity');
  if (ctx.clock.now() - message.createTime > PATCH_WINDOW_MS)
    return imFail(230001, 'invalid request param: only messages of the last 14 days can be updated');
  const body = isRecord(req.body) ? req.body : {};
  const invalid = validateImContent('interactive', body.content);
  if (invalid) return imFail(invalid.code, invalid.msg);
  const next = JSON.parse(String(body.content)) as unknown;
  if (!isUpdateMulti(JSON.parse(message.content)) || !isUpdateMulti(next))
    return imFail(230001, 'invalid request param: both cards must declare config.update_multi:true');
  if (!ctx.limiter.hit(`im.patch|${message.messageId}`, { perSecond: PER_TARGET_QPS }).allowed)
    return imFail(230020, 'This operation triggers the frequency limit');
  message.content = String(body.content);
  message.updateTime = ctx.clock.now();
  message.updated = true;
  return ok({});
}

/** Formats im/v1/images takes (JPEG, PNG, WEBP, GIF, TIFF, BMP, ICO), told by content as Lark does, not by name or part type. */
export function imageFormat(data: Buffer): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => data[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  if (data.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  if (starts(0x42, 0x4d)) return 'bmp';
  if (starts(0x00, 0x00, 0x01, 0x00)) return 'ico';
  return null;
}

/** POST im/v1/images: multipart `image_type` (message | avatar) and `image`, at most 10 MB, a real image. */
function uploadImage(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const principal = authenticate(ctx, req, ['tenant']);
  if (!isPrincipal(principal)) return principal;
  if (!ctx.state.apps.get(principal.appId)?.botEnabled) return imFail(234007, 'App does not enable bot feature');
  const form = req.multipart;
  if (!form) return imFail(234001, 'Invalid request param: multipart/form-data expected');
  if (form.fields.image_type !== 'message' && form.fields.image_type !== 'avatar')
    return imFail(234001, 'Invalid request param: image_type must be message or avatar');
  const image = form.files.find((f) => f.field === 'image');
  if (!image) return imFail(234001, 'Invalid request param: image is required');
  if (image.data.length === 0) return imFail(234010, "File's size can't be 0");
  if (image.data.length > IMAGE_LIMIT_BYTES) return imFail(234006, 'The file size exceeds the limit (10 MB)');
  const format = imageFormat(image.data);
  if (!format) return imFail(234011, "Can't recognize the image format");
  const imageKey = `img_v3_${randomChars(28, true)}`;
  const sha256 = createHash('sha256').update(image.data).digest('hex');
  ctx.state.imImages.push({
    imageKey,
    appId: principal.appId,
    imageType: form.fields.image_type,
    format,
    size: image.data.length,
    sha256,
    at: ctx.clock.now(),
  });
  return ok({ image_key: imageKey });
}

export function imRoutes(ctx: LarkContext): RouteDef[] {
  return [
    {
      name: 'im.message.create',
      method: 'POST',
      path: '/open-apis/im/v1/messages',
      handler: (req) => create(ctx, req),
    },
    {
      name: 'im.message.reply',
      method: 'POST',
      path: '/open-apis/im/v1/messages/:message_id/reply',
      handler: (req) => reply(ctx, req),
    },
    {
      name: 'im.message.patch',
      method: 'PATCH',
      path: '/open-apis/im/v1/messages/:message_id',
      handler: (req) => patch(ctx, req),
    },
    {
      name: 'im.image.create',
      method: 'POST',
      path: '/open-apis/im/v1/images',
      handler: (req) => uploadImage(ctx, req),
    },
  ];
}
