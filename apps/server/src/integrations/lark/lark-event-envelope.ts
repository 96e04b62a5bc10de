import { createDecipheriv, createHash, timingSafeEqual } from 'node:crypto';

/** What the console calls Verification Token and Encrypt Key (config LARK_VERIFICATION_TOKEN, LARK_ENCRYPT_KEY). */
export interface LarkEventKeys {
  verificationToken: string | null;
  encryptKey: string | null;
}

export type LarkEventRefusal = 'bad_body' | 'missing_signature' | 'bad_signature' | 'cannot_decrypt' | 'bad_token';

export class LarkEventError extends Error {
  constructor(
    readonly reason: LarkEventRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'LarkEventError';
  }
}

export type LarkIncoming =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'event'; eventId: string; eventType: string; createTime: number; event: Record<string, unknown> };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Contract §F: X-Lark-Signature = hex(sha256(timestamp + nonce + encrypt_key + raw_body)). */
export function larkEventSignature(timestamp: string, nonce: string, encryptKey: string, rawBody: Buffer): string {
  return createHash('sha256')
    .update(timestamp + nonce + encryptKey)
    .update(rawBody)
    .digest('hex');
}

/**
 * Contract §F: `encrypt` is base64 of a 16-byte IV and the AES-256-CBC ciphertext (PKCS#7 padding) under
 * sha256(encrypt key) — what the SDK's AESCipher does, with node:crypto, so the SDK (~30 MiB) is not loaded for it.
 */
export function decryptLarkEvent(encryptKey: string, encrypted: string): string {
  const key = createHash('sha256').update(encryptKey).digest();
  const bytes = Buffer.from(encrypted, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', key, bytes.subarray(0, 16));
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
}

/** create_time is in ms; some old samples show µs. */
function millis(value: unknown): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return n > 1e14 ? Math.floor(n / 1000) : n;
}

/**
 * Opens one push of Lark's event subscription (contract §F): decrypts `{"encrypt"}` bodies (AES-256-CBC,
 * decryptLarkEvent), checks X-Lark-Signature over the raw bytes whenever an encrypt key is set (the url
 * challenge excepted: decrypting it already proves the key), and compares the verification token (the SDK's
 * dispatcher does not). Schema 2.0 and 1.0 envelopes.
 */
export function openLarkEvent(
  request: { headers: Record<string, string | string[] | undefined>; rawBody: Buffer },
  keys: LarkEventKeys,
): LarkIncoming {
  let outer: unknown;
  try {
    outer = JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    throw new LarkEventError('bad_body', '事件内容不是 JSON');
  }
  if (!isObject(outer)) throw new LarkEventError('bad_body', '事件内容不是 JSON 对象');

  let body: Json = outer;
  if (typeof outer.encrypt === 'string') {
    if (!keys.encryptKey) throw new LarkEventError('cannot_decrypt', '收到加密事件，但未配置 LARK_ENCRYPT_KEY');
    try {
      const parsed: unknown = JSON.parse(decryptLarkEvent(keys.encryptKey, outer.encrypt));
      if (!isObject(parsed)) throw new Error('not an object');
      body = parsed;
    } catch {
      throw new LarkEventError('cannot_decrypt', '事件解密失败（LARK_ENCRYPT_KEY 与飞书后台不一致？）');
    }
  }

  if (body.type === 'url_verification') {
    if (typeof body.challenge !== 'string') throw new LarkEventError('bad_body', 'url_verification 缺少 challenge');
    if (keys.verificationToken && !(typeof body.token === 'string' && sameText(body.token, keys.verificationToken)))
      throw new LarkEventError('bad_token', 'Verification Token 不一致');
    return { kind: 'challenge', challenge: body.challenge };
  }

  if (keys.encryptKey) {
    const timestamp = header(request.headers, 'x-lark-request-timestamp');
    const nonce = header(request.headers, 'x-lark-request-nonce');
    const signature = header(request.headers, 'x-lark-signature');
    if (!timestamp || !nonce || !signature) throw new LarkEventError('missing_signature', '缺少 X-Lark-Signature 签名');
    if (!sameText(signature, larkEventSignature(timestamp, nonce, keys.encryptKey, request.rawBody)))
      throw new LarkEventError('bad_signature', 'X-Lark-Signature 签名不正确');
  }

  const head = isObject(body.header) ? body.header : null;
  const token = head ? head.token : body.token;
  if (keys.verificationToken && !(typeof token === 'string' && sameText(token, keys.verificationToken)))
    throw new LarkEventError('bad_token', 'Verification Token 不一致');

  const event = isObject(body.event) ? body.event : null;
  if (!event) throw new LarkEventError('bad_body', '事件缺少 event');
  if (head) {
    // Schema 2.0.
    if (typeof head.event_id !== 'string' || typeof head.event_type !== 'string')
      throw new LarkEventError('bad_body', '事件缺少 event_id 或 event_type');
    return {
      kind: 'event',
      eventId: head.event_id,
      eventType: head.event_type,
      createTime: millis(head.create_time),
      event,
    };
  }
  // Schema 1.0: {uuid, ts, token, type:"event_callback", event:{type,…}}.
  if (typeof body.uuid !== 'string' || typeof event.type !== 'string')
    throw new LarkEventError('bad_body', '事件缺少 uuid 或 type');
  return {
    kind: 'event',
    eventId: body.uuid,
    eventType: event.type,
    createTime: Math.floor(Number(body.ts) * 1000) || 0,
    event,
  };
}
