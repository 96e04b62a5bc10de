import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressesOf } from './public-url.ts';

export interface SecurityHeaderOptions {
  /** PUBLIC_URL: HSTS when it is https; links (part uploads, media) point there. */
  publicUrl?: string;
  /** DOWNLOAD_BASE_URL: package and media links point there. */
  downloadBaseUrl?: string;
  /** Where browsers PUT parts and GET files of an S3 store (its presigned URLs' origin). */
  storageOrigin?: string | null;
}

/** Where the Swagger UI lives (it gets a policy of its own). */
export const DOCS_PREFIX = '/api/docs';

/** Features no page of the site uses: a script that slipped in cannot ask for them either. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=()';

const originOf = (url: string | null | undefined): string | null => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The web app's Content-Security-Policy. Scripts only from this origin (Vite emits no inline script); styles
 * also inline, because antd's CSS-in-JS writes `<style>` elements at run time (docs/decisions.md). Images,
 * media and fetches may also go to the other hosts links point at: PUBLIC_URL, DOWNLOAD_BASE_URL, the S3 store.
 */
export function appContentSecurityPolicy(linkOrigins: string[]): string {
  const hosts = [...new Set(linkOrigins)].join(' ');
  const withHosts = (sources: string) => (hosts ? `${sources} ${hosts}` : sources);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${withHosts("'self' data: blob:")}`,
    `media-src ${withHosts("'self' blob:")}`,
    `connect-src ${withHosts("'self'")}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The Swagger UI: its own scripts and styles from /api/docs/static, inline styles, its data: logo. */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function isHtml(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.toLowerCase().startsWith('text/html');
}

/**
 * Headers on every answer: types are not sniffed, pages are never framed, the referrer stays on this site,
 * unused browser features are off, HSTS when PUBLIC_URL is https. HTML gets a Content-Security-Policy — the
 * backstop against XSS, as the session token lives in localStorage. A route that set its own (uploaded files
 * are sandboxed, byte-range.ts) keeps it.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions = {}): void {
  const configured = [
    originOf(options.publicUrl),
    originOf(options.downloadBaseUrl),
    options.storageOrigin ?? null,
  ].filter((o): o is string => o !== null);
  const hsts = options.publicUrl?.startsWith('https://') ? 'max-age=31536000' : null;
  const setIfAbsent = (reply: FastifyReply, name: string, value: string) => {
    if (!reply.hasHeader(name)) reply.header(name, value);
  };
  app.addHook('onSend', async (request: FastifyRequest, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    setIfAbsent(reply, 'x-frame-options', 'DENY');
    setIfAbsent(reply, 'referrer-policy', 'same-origin');
    setIfAbsent(reply, 'permissions-policy', PERMISSIONS_POLICY);
    if (hsts) reply.header('strict-transport-security', hsts);
    if (!reply.hasHeader('content-security-policy') && isHtml(reply)) {
      const pathname = request.url.split('?')[0] ?? '';
      if (pathname === DOCS_PREFIX || pathname.startsWith(`${DOCS_PREFIX}/`)) {
        reply.header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY);
      } else {
        // Without PUBLIC_URL a page opened by another name than the default gets links to the default (public-url.ts).
        const fallback = options.publicUrl ? null : addressesOf(request.server)?.primary;
        reply.header(
          'content-security-policy',
          appContentSecurityPolicy(fallback ? [...configured, fallback] : configured),
        );
      }
    }
  });
}
