import { randomBytes, randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random characters from [A-Za-z0-9] (plus `_-` when `urlSafe`), for ids shaped like the real ones. */
export function randomChars(length: number, urlSafe = false): string {
  const alphabet = urlSafe ? `${ALNUM}_-` : ALNUM;
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[(bytes[i] ?? 0) % alphabet.length];
  return out;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function uuid(): string {
  return randomUUID();
}
