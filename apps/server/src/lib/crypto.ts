import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** Slow salted hash of the client's password digest: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(digest: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(digest, salt, SCRYPT.keylen, {
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    maxmem: 64 * 1024 * 1024,
  });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(digest: string, stored: string): Promise<boolean> {
  // An account without a password spends the same time as any refused one.
  if (!hasUsablePassword(stored)) return verifyPassword(digest, DUMMY_PASSWORD_HASH).then(() => false);
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(digest, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Stored for accounts made by a Lark / WeCom sign-in: no password until an admin or the user sets one. */
export const NO_PASSWORD_HASH = '!no-password';

export function hasUsablePassword(stored: string): boolean {
  return !stored.startsWith('!');
}

/** A password hash that no digest matches, to spend the same time on unknown users. */
export const DUMMY_PASSWORD_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += String(randomInt(10));
  return out;
}

/** Compares two secrets in time that does not depend on where they differ (hashes first: lengths may differ). */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
