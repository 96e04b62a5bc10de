import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** App Store Connect tokens (contract F1): ES256, raw r‖s signature, `aud` appstoreconnect-v1, at most 20 minutes. */
export const ASC_AUDIENCE = 'appstoreconnect-v1';
export const ASC_MAX_LIFETIME_SECONDS = 20 * 60;

export interface AscKeyPair {
  issuerId: string;
  keyId: string;
  /** The `.p8` as Apple hands it out: PEM PKCS#8 EC P-256. */
  p8: string;
  publicKey: KeyObject;
}

const KEY_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomKeyId(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += KEY_ID_ALPHABET[Math.floor(Math.random() * KEY_ID_ALPHABET.length)];
  return out;
}

/** A throwaway API key, as App Store Connect would create (the .p8 can be downloaded once). */
export function generateAscKey(issuerId: string, keyId = randomKeyId()): AscKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { issuerId, keyId, p8: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Mints a token the way a correct client does; `overrides` let tests build wrong ones. */
export function signAscToken(
  key: { issuerId: string; keyId: string; p8: string },
  options: {
    now?: number;
    lifetimeSeconds?: number;
    header?: Record<string, unknown>;
    payload?: Record<string, unknown>;
    derSignature?: boolean;
  } = {},
): string {
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  const header = { alg: 'ES256', kid: key.keyId, typ: 'JWT', ...options.header };
  const payload = {
    iss: key.issuerId,
    iat,
    exp: iat + (options.lifetimeSeconds ?? 15 * 60),
    aud: ASC_AUDIENCE,
    ...options.payload,
  };
  const input = `${b64url(header)}.${b64url(payload)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: createPrivateKey(key.p8),
    dsaEncoding: options.derSignature ? 'der' : 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}

export type TokenCheck = { ok: true; keyId: string; issuerId: string } | { ok: false; reason: string };

function decodePart(part: string | undefined): Record<string, unknown> | null {
  if (!part) return null;
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Checks a bearer token against the registered keys: every failure is the same 401 to the client, the reason is for tests. */
export function verifyAscToken(
  authorization: string | undefined,
  keys: ReadonlyMap<string, { issuerId: string; publicKey: KeyObject; revoked?: boolean }>,
  nowMs: number,
): TokenCheck {
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  if (!match?.[1]) return { ok: false, reason: 'missing bearer token' };
  const parts = match[1].split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a JWT' };
  const header = decodePart(parts[0]);
  const payload = decodePart(parts[1]);
  if (!header || !payload) return { ok: false, reason: 'unreadable JWT' };
  if (header.alg !== 'ES256') return { ok: false, reason: 'alg is not ES256' };
  const key = typeof header.kid === 'string' ? keys.get(header.kid) : undefined;
  if (!key || key.revoked) return { ok: false, reason: 'unknown kid' };
  const signature = Buffer.from(parts[2] ?? '', 'base64url');
  if (signature.length !== 64) return { ok: false, reason: 'signature is not raw r||s' };
  const signed = verify(
    'sha256',
    Buffer.from(`${parts[0]}.${parts[1]}`),
    { key: key.publicKey, dsaEncoding: 'ieee-p1363' },
    signature,
  );
  if (!signed) return { ok: false, reason: 'bad signature' };
  if (payload.iss !== key.issuerId) return { ok: false, reason: 'iss does not match the key' };
  if (payload.aud !== ASC_AUDIENCE) return { ok: false, reason: 'wrong aud' };
  const now = Math.floor(nowMs / 1000);
  if (typeof payload.exp !== 'number') return { ok: false, reason: 'no exp' };
  if (payload.exp <= now) return { ok: false, reason: 'expired' };
  if (payload.exp - now > ASC_MAX_LIFETIME_SECONDS) return { ok: false, reason: 'exp more than 20 minutes ahead' };
  if (typeof payload.iat === 'number' && payload.iat > now + 60) return { ok: false, reason: 'iat in the future' };
  return { ok: true, keyId: String(header.kid), issuerId: key.issuerId };
}

/** The public half of a .p8 (for registering a key minted elsewhere). */
export function publicKeyOfP8(p8: string): KeyObject {
  return createPublicKey(createPrivateKey(p8));
}
