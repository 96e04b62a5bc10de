import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookError, type WebhookEvent, type WebhookRequest } from './webhook-types.ts';

function bodyBytes(rawBody: WebhookRequest['rawBody']): Buffer {
  return typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
}

/** Lowercase hex HMAC-SHA256 of the raw body, as GitHub (after `sha256=`) and Gitea send it. */
export function hmacSha256Hex(secret: string, rawBody: WebhookRequest['rawBody']): string {
  return createHmac('sha256', secret).update(bodyBytes(rawBody)).digest('hex');
}

/**
 * GitLab's plain shared token. Both sides are hashed first so the comparison is constant-time whatever the
 * lengths. Throws missing_signature / bad_signature.
 */
export function verifySharedToken(secret: string, provided: string | null): void {
  if (provided === null) throw new WebhookError('missing_signature', 'no token header');
  const expected = createHash('sha256').update(secret, 'utf8').digest();
  const actual = createHash('sha256').update(provided, 'utf8').digest();
  if (!timingSafeEqual(expected, actual)) throw new WebhookError('bad_signature', 'token mismatch');
}

/** Checks a hex HMAC-SHA256 (without prefix) of the raw body in constant time. */
export function verifyHmacHex(secret: string, rawBody: WebhookRequest['rawBody'], providedHex: string | null): void {
  if (providedHex === null) throw new WebhookError('missing_signature', 'no signature header');
  if (!/^[0-9a-fA-F]{64}$/.test(providedHex)) throw new WebhookError('bad_signature', 'malformed signature');
  const expected = createHmac('sha256', secret).update(bodyBytes(rawBody)).digest();
  if (!timingSafeEqual(expected, Buffer.from(providedHex, 'hex')))
    throw new WebhookError('bad_signature', 'signature mismatch');
}

/** `sha256=<hex>` → hex; anything else (a legacy `sha1=` header included) → null. */
export function stripSha256Prefix(header: string | null): string | null {
  if (header === null) return null;
  return header.toLowerCase().startsWith('sha256=') ? header.slice('sha256='.length) : null;
}

/**
 * A stable key to dedupe deliveries: the host's delivery id, or — when it sends none — `sha256:` + the hash of
 * the raw body, which is identical for a replay of the same delivery.
 */
export function webhookDeliveryKey(
  event: Pick<WebhookEvent, 'deliveryId'>,
  rawBody: WebhookRequest['rawBody'],
): string {
  return event.deliveryId ?? `sha256:${createHash('sha256').update(bodyBytes(rawBody)).digest('hex')}`;
}
