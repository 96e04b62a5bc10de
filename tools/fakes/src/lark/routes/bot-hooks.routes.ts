import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { botFail, isRecord } from '../envelope.ts';
import { signBotRequest } from '../lark-crypto.ts';
import type { LarkContext } from '../lark-context.ts';
import type { BotHook } from '../lark-state.ts';
import { BOT_POST_TAGS, textsOf, validateCard, validatePostBody } from '../message-content.ts';

export const BOT_BODY_LIMIT_BYTES = 20 * 1024;
const SIGN_WINDOW_S = 3600;
const BAD_REQUEST = 'Bad Request';

function validateMessage(body: Record<string, unknown>): string | null {
  const content = body.content;
  switch (body.msg_type) {
    case 'text':
      return isRecord(content) && typeof content.text === 'string' ? null : 'text needs content.text';
    case 'post':
      return isRecord(content) ? validatePostBody(content.post, BOT_POST_TAGS, false) : 'post needs content.post';
    case 'image':
      return isRecord(content) && typeof content.image_key === 'string' ? null : 'image needs content.image_key';
    case 'share_chat':
      return isRecord(content) && typeof content.share_chat_id === 'string'
        ? null
        : 'share_chat needs content.share_chat_id';
    case 'interactive':
      return validateCard(body.card, false);
    default:
      return `unsupported msg_type ${String(body.msg_type)}`;
  }
}

function checkSignature(ctx: LarkContext, bot: BotHook, body: Record<string, unknown>): boolean {
  if (!bot.secret) return true;
  const timestamp = typeof body.timestamp === 'number' ? String(body.timestamp) : body.timestamp;
  if (typeof timestamp !== 'string' || typeof body.sign !== 'string' || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(ctx.clock.nowSeconds() - Number(timestamp)) > SIGN_WINDOW_S) return false;
  return signBotRequest(timestamp, bot.secret) === body.sign;
}

/** POST /open-apis/bot/v2/hook/:token — every refusal is HTTP 200 with a code, as observed. */
function send(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const token = req.params.token ?? '';
  const bot = ctx.state.bots.get(token);
  const reject = (code: number, msg: string, reason: string): FakeResponse => {
    ctx.state.botRejections.push({ botToken: token, code, reason, at: ctx.clock.now() });
    return botFail(code, msg);
  };
  if (!bot) return reject(19001, 'param invalid: incoming webhook access token invalid', 'unknown hook token');
  if (req.rawBody.length > BOT_BODY_LIMIT_BYTES)
    return reject(19036, 'request body too large', `body is ${req.rawBody.length} bytes, limit 20 KB`);
  const limit = ctx.rateLimits.get('bot.hook');
  if (limit) {
    const decision = ctx.limiter.hit(`bot.hook|${token}`, limit);
    if (!decision.allowed)
      return reject(
        11232,
        `frequency limited psm[lark.oapi.app_platform_runtime]appID[${token.slice(0, 8)}]`,
        `over ${decision.limit} per ${decision.window}`,
      );
  }
  if (req.bodyError || !isRecord(req.body))
    return reject(9499, BAD_REQUEST, req.bodyError ?? 'body is not a JSON object');
  const body = req.body;
  if (!checkSignature(ctx, bot, body))
    return reject(
      19021,
      'sign match fail or timestamp is not within one hour from current time',
      'bad signature or stale timestamp',
    );
  if (body.msg_type === undefined || body.msg_type === '')
    return reject(19002, 'params error, msg_type need', 'msg_type missing');
  const invalid = validateMessage(body);
  if (invalid) return reject(9499, BAD_REQUEST, invalid);
  if (bot.keywords?.length) {
    const texts = textsOf(body.msg_type === 'interactive' ? body.card : body.content);
    if (!bot.keywords.some((k) => texts.some((t) => t.includes(k))))
      return reject(19024, 'Key Words Not Found', 'no keyword in text or title values');
  }
  ctx.state.botMessages.push({
    botToken: token,
    msgType: String(body.msg_type),
    content: body.content,
    card: body.card,
    legacy: false,
    at: ctx.clock.now(),
  });
  return { status: 200, body: { StatusCode: 0, StatusMessage: 'success', code: 0, data: {}, msg: 'success' } };
}

/** The legacy hook accepts only `{title?, text}`. */
function sendLegacy(ctx: LarkContext, req: FakeRequest): FakeResponse {
  const bot = ctx.state.bots.get(req.params.token ?? '');
  if (!bot) return { status: 200, body: { ok: false, error: 'token invalid' } };
  const body = isRecord(req.body) ? req.body : null;
  if (!body || typeof body.text !== 'string') return { status: 200, body: { ok: false, error: 'text is required' } };
  ctx.state.botMessages.push({
    botToken: bot.token,
    msgType: 'legacy',
    content: { title: body.title, text: body.text },
    legacy: true,
    at: ctx.clock.now(),
  });
  return { status: 200, body: { ok: true } };
}

export function botHookRoutes(ctx: LarkContext): RouteDef[] {
  return [
    { name: 'bot.hook', method: 'POST', path: '/open-apis/bot/v2/hook/:token', handler: (req) => send(ctx, req) },
    {
      name: 'bot.hook_legacy',
      method: 'POST',
      path: '/open-apis/bot/hook/:token',
      handler: (req) => sendLegacy(ctx, req),
    },
  ];
}
