import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { JobFailure } from '../../jobs/job-definition.ts';
import { LarkApiError, type LarkClient } from '../../integrations/lark/lark-client.ts';
import { decodeJson } from '../../lib/decode-json.ts';

export const SEND_TIMEOUT_MS = 15_000;

/** What the receiver said when it accepted the message. */
export interface SendReceipt {
  code: number;
  message: string;
}

/**
 * Whether a failed request may have reached the receiver. Errors raised while connecting (refused, unknown
 * host, connect timeout) mean it did not; a timeout or reset after the request left may mean it did.
 */
export function mayHaveArrived(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  const code = cause?.code ?? (error as { code?: string } | null)?.code;
  return !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].includes(
    code ?? '',
  );
}

/** Lark custom-bot signature (contract §B): HMAC-SHA256 keyed by `timestamp\nsecret` over empty bytes. */
export function larkBotSign(timestampSec: number, secret: string): string {
  return createHmac('sha256', `${timestampSec}\n${secret}`).update(Buffer.alloc(0)).digest('base64');
}

/**
 * One POST on a fresh connection (no keep-alive pool): a refused or failed connect then always means the
 * request never left, and an error after it is the only case whose outcome is unknown. A pooled socket
 * closed by the receiver while idle would otherwise blur the two.
 */
function postJson<S extends z.ZodType>(
  url: string,
  body: unknown,
  schema: S,
): Promise<{ status: number; json: z.output<S> | null; headers: Headers }> {
  const target = new URL(url);
  const payload = Buffer.from(JSON.stringify(body));
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': payload.length,
          connection: 'close',
        },
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          // An answer that does not fit (a proxy's error page, a bare `null`): the HTTP status says enough.
          const answer = decodeJson(Buffer.concat(chunks).toString('utf8'), schema);
          const json = answer.ok ? answer.value : null;
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          // Redirects are not followed: a robot address answers itself or not at all.
          resolve({ status: res.statusCode ?? 0, json, headers });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The fields of a Lark custom bot's answer we read: `code`/`msg`, or `StatusCode`/`StatusMessage` of older bots. */
const larkBotAnswer = z.object({
  code: z.number().nullish(),
  msg: z.string().nullish(),
  StatusCode: z.number().nullish(),
  StatusMessage: z.string().nullish(),
});
/** The fields of a WeCom group robot's answer we read. */
const wecomRobotAnswer = z.object({ errcode: z.number().nullish(), errmsg: z.string().nullish() });

function resetMs(headers: Headers): number | null {
  const reset = Number(headers.get('x-ogw-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? reset * 1000 : null;
}

/** Rate limits and transient server trouble of Lark (contract §B, §C, §H). */
const LARK_RETRYABLE = new Set([11232, 11233, 11247, 230020, 230049, 99991400, 1000004, 1000005, 2200, 5000]);
const LARK_RATE_LIMITS = new Set([11232, 11233, 11247, 230020, 99991400, 1000004, 1000005]);

function larkFailure(status: number, code: number, message: string, headers?: Headers): JobFailure {
  const text = `${message || `HTTP ${status}`}（飞书 ${code}）`;
  if (LARK_RETRYABLE.has(code) || status === 429 || status >= 500) {
    const wait = (headers && resetMs(headers)) ?? (LARK_RATE_LIMITS.has(code) || status === 429 ? 60_000 : null);
    return JobFailure.retry(text, { code, retryAfterMs: wait });
  }
  return JobFailure.permanent(text, code);
}

/** Posts to a Lark custom bot; signs when the bot has a secret. Throws JobFailure. */
export async function sendLarkBot(
  url: string,
  body: Record<string, unknown>,
  secret: string | null,
  nowMs: number,
): Promise<SendReceipt> {
  const timestamp = Math.floor(nowMs / 1000);
  const signed = secret ? { timestamp: String(timestamp), sign: larkBotSign(timestamp, secret), ...body } : body;
  const { status, json, headers } = await postJson(url, signed, larkBotAnswer);
  const code = json?.code ?? json?.StatusCode ?? (status === 200 ? 0 : -1);
  const message = json?.msg ?? json?.StatusMessage ?? '';
  if (status === 200 && code === 0) return { code, message: message || 'success' };
  throw larkFailure(status, code, message, headers);
}

/** Sends an interactive card to a Lark user with the app bot; `uuid` makes a repeat within an hour a no-op. */
export async function sendLarkIm(
  client: LarkClient,
  openId: string,
  content: string,
  uuid: string,
): Promise<SendReceipt> {
  try {
    const data = await client.withTenant('/open-apis/im/v1/messages?receive_id_type=open_id', {
      receive_id: openId,
      msg_type: 'interactive',
      content,
      uuid,
    });
    return { code: 0, message: typeof data.message_id === 'string' ? data.message_id : 'success' };
  } catch (error) {
    if (error instanceof LarkApiError) {
      // A tenant-token refusal (10014 and kin) is the app's configuration: waiting does not fix it.
      throw larkFailure(error.httpStatus, error.code, error.message);
    }
    throw error;
  }
}

const WECOM_RETRYABLE = new Set([-1, 45009]);

/** Posts to a WeCom group robot. Throws JobFailure. */
export async function sendWecomRobot(url: string, body: Record<string, unknown>): Promise<SendReceipt> {
  const { status, json } = await postJson(url, body, wecomRobotAnswer);
  const code = json?.errcode ?? -1;
  const message = json?.errmsg ?? `HTTP ${status}`;
  if (status === 200 && code === 0) return { code, message: message || 'ok' };
  const text = `${message}（企业微信 ${code}）`;
  // 45009: once over 20 a minute the robot is blocked for 60 s.
  if (WECOM_RETRYABLE.has(code) || status === 429 || status >= 500)
    throw JobFailure.retry(text, { code, retryAfterMs: code === 45009 ? 60_000 : null });
  throw JobFailure.permanent(text, code);
}
