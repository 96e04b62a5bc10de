import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INSTALL_DEVICE_COOKIE } from '@release/contract';

/** The device cookie's value: 22 url-safe characters from 16 random bytes (anything else is ignored). */
const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;
/** The longest a browser keeps a cookie (Chrome caps Max-Age at 400 days). */
const DEVICE_COOKIE_MAX_AGE_SEC = 400 * 24 * 60 * 60;

/** The install page's device id from its cookie, when the request carries a well-formed one. */
export function readInstallDevice(request: FastifyRequest): string | null {
  const header = request.headers.cookie ?? '';
  for (const part of header.slice(0, 8192).split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === INSTALL_DEVICE_COOKIE && value && DEVICE_ID.test(value)) return value;
  }
  return null;
}

/**
 * This browser's install device id: the cookie it sent, or a new random one set on the reply (HttpOnly, a year and
 * more). The page's own request sets it, so its downloads, and the iOS manifest links it hands out, name the device.
 */
export function ensureInstallDevice(request: FastifyRequest, reply: FastifyReply): string {
  const known = readInstallDevice(request);
  if (known) return known;
  const id = randomBytes(16).toString('base64url');
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${INSTALL_DEVICE_COOKIE}=${id}; Path=/api/; HttpOnly; SameSite=Lax; Max-Age=${DEVICE_COOKIE_MAX_AGE_SEC}${secure}`,
  );
  return id;
}

/**
 * The device a count belongs to (install_events.device_key): `u<user id>` for a signed-in user, else `d<device id>`
 * (the cookie, or the `d=` of a signed link the page handed out), else `a<digest of address and User-Agent>`.
 */
export function installDeviceKey(who: {
  userId?: number | null;
  device?: string | null;
  ip: string;
  userAgent?: string;
}): string {
  if (who.userId) return `u${who.userId}`;
  if (who.device) return `d${who.device}`;
  return `a${createHash('sha256')
    .update(`${who.ip}\n${who.userAgent ?? ''}`)
    .digest('base64url')
    .slice(0, 32)}`;
}

/**
 * Whether a GET of a package is the start of a download, not a resumed or partial one: no Range, or one from byte 0
 * (download managers ask `bytes=0-` first). A HEAD is never a download.
 */
export function startsDownload(request: FastifyRequest): boolean {
  if (request.method !== 'GET') return false;
  const range = request.headers.range;
  return range === undefined || /^bytes=0-/.test(range.trim());
}
