import type { FakeRequest, FakeResponse, RouteDef } from '../../shared/http-server.ts';
import { randomChars } from '../../shared/ids.ts';
import type { RateLimit } from '../../shared/rate-limiter.ts';
import { checkRobotMessage } from '../robot-content.ts';
import { wecomFail, wecomOk, type WecomContext } from '../wecom-context.ts';
import type { WecomRobot } from '../wecom-state.ts';

/** 20 messages per minute per robot; once hit, the robot is blocked for 60 s. */
export const ROBOT_RATE_LIMIT: RateLimit = { perMinute: 20, blockMs: 60_000 };
export const MEDIA_TTL_MS = 3 * 24 * 3600_000;
export const FILE_MAX_BYTES = 20 * 1024 * 1024;
export const VOICE_MAX_BYTES = 2 * 1024 * 1024;
const MEDIA_MIN_BYTES = 5;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The robot behind `?key=`, or the 93000 / 93004 answer (recorded as a rejection). */
function robotOf(
  ctx: WecomContext,
  req: FakeRequest,
  reject: (errcode: number, errmsg: string, reason: string) => FakeResponse,
): WecomRobot | FakeResponse {
  const key = req.query.get('key') ?? '';
  const robot = ctx.state.robots.get(key);
  if (!robot) return reject(93000, 'invalid webhook url', key ? 'unknown robot key' : 'key missing');
  if (robot.disabled) return reject(93004, 'webhook disabled', 'the robot is switched off');
  return robot;
}

function rejecter(ctx: WecomContext, req: FakeRequest) {
  return (errcode: number, errmsg: string, reason: string): FakeResponse => {
    ctx.state.robotRejections.push({ key: req.query.get('key') ?? '', errcode, reason, at: ctx.clock.now() });
    return wecomFail(errcode, errmsg);
  };
}

/** POST /cgi-bin/webhook/send?key= — every answer is HTTP 200; accepted messages are recorded. */
function send(ctx: WecomContext, req: FakeRequest, limit: () => RateLimit | null): FakeResponse {
  const reject = rejecter(ctx, req);
  const robot = robotOf(ctx, req, reject);
  if (!('key' in robot)) return robot;
  const rate = limit();
  if (rate) {
    const decision = ctx.limiter.hit(`robot|${robot.key}`, rate);
    if (!decision.allowed)
      return reject(
        45009,
        'api freq out of limit',
        `over ${decision.limit} per minute; blocked for ${decision.resetSeconds} s`,
      );
  }
  if (req.bodyError || !isRecord(req.body))
    return reject(40035, 'invalid parameter, wrong json format', req.bodyError ?? 'body is not a JSON object');
  const checked = checkRobotMessage(ctx.state, robot.key, req.body, ctx.clock.now());
  if (!checked.ok) return reject(checked.errcode, checked.errmsg, checked.reason);
  ctx.state.robotMessages.push({
    key: robot.key,
    msgtype: String(req.body.msgtype),
    body: checked.body,
    at: ctx.clock.now(),
  });
  return wecomOk();
}

/** POST /cgi-bin/webhook/upload_media?key=&type=file|voice — one multipart part named `media`. */
function uploadMedia(ctx: WecomContext, req: FakeRequest): FakeResponse {
  const reject = rejecter(ctx, req);
  const robot = robotOf(ctx, req, reject);
  if (!('key' in robot)) return robot;
  const type = req.query.get('type');
  if (type !== 'file' && type !== 'voice') return reject(40004, 'invalid media type', `type=${type ?? ''}`);
  const part = req.multipart?.files.find((f) => f.field === 'media');
  if (!part) return reject(41005, 'media data missing', 'no multipart part named media');
  const max = type === 'voice' ? VOICE_MAX_BYTES : FILE_MAX_BYTES;
  if (part.data.length <= MEDIA_MIN_BYTES || part.data.length > max)
    return reject(40006, 'invalid file size', `${part.data.length} bytes; allowed 6 bytes to ${max}`);
  if (type === 'voice' && !part.data.subarray(0, 6).equals(Buffer.from('#!AMR\n')))
    return reject(40005, 'invalid file type', 'voice must be AMR');
  const now = ctx.clock.now();
  const mediaId = `3${randomChars(63)}`;
  ctx.state.media.set(mediaId, {
    mediaId,
    key: robot.key,
    type,
    filename: part.filename,
    size: part.data.length,
    expiresAt: now + MEDIA_TTL_MS,
  });
  return wecomOk({ type, media_id: mediaId, created_at: String(Math.floor(now / 1000)) });
}

export function robotRoutes(ctx: WecomContext, limit: () => RateLimit | null): RouteDef[] {
  return [
    { name: 'webhook.send', method: 'POST', path: '/cgi-bin/webhook/send', handler: (req) => send(ctx, req, limit) },
    {
      name: 'webhook.upload_media',
      method: 'POST',
      path: '/cgi-bin/webhook/upload_media',
      handler: (req) => uploadMedia(ctx, req),
    },
  ];
}
