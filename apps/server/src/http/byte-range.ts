import { createHash } from 'node:crypto';
import type { ByteRange } from '../storage/blob-store.ts';

/**
 * Parses a single HTTP Range header against a size. `null`: serve the whole body;
 * `'unsatisfiable'`: answer 416. Multiple ranges are served whole (allowed by RFC 9110).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, startText = '', endText = ''] = match;
  if (startText === '' && endText === '') return null;
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** `attachment` (or `inline`) with an ASCII fallback and the UTF-8 name (RFC 6266), safe for Chinese file names. */
export function attachmentDisposition(fileName: string, kind: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Headers for files users uploaded, served from this origin: never sniffed into another type, and an
 * html page shown runs sandboxed in an opaque origin (no allow-same-origin), so its scripts cannot read
 * this site's storage (the sign-in token) or call the API as the visitor.
 */
export const UPLOADED_CONTENT_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox allow-scripts allow-forms allow-popups allow-modals',
  'referrer-policy': 'no-referrer',
} as const;

/** A strong entity tag from what identifies one stored version of an object (key, size, modification time, inode). */
export function strongEtag(parts: ReadonlyArray<string | number | bigint>): string {
  return `"${createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 27)}"`;
}

/**
 * RFC 9110 §13.1.5: whether a Range may be served. True without If-Range; an entity tag must match
 * strongly (a weak one never does); a date must equal Last-Modified exactly, and only counts while that
 * date is strong (§8.8.2.2: at least a second before now). Otherwise the whole file is sent (200).
 */
export function ifRangeHolds(
  header: string | string[] | undefined,
  current: { etag: string; lastModifiedMs: number },
  nowMs: number,
): boolean {
  if (header === undefined) return true;
  // Sent twice it names no one validator: the whole file.
  const value = Array.isArray(header) ? header.join(', ') : header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === current.etag;
  const date = Date.parse(value);
  const lastModifiedSec = Math.floor(current.lastModifiedMs / 1000) * 1000;
  return !Number.isNaN(date) && date === lastModifiedSec && current.lastModifiedMs <= nowMs - 1000;
}

/** RFC 9110 §13.1.2: If-None-Match by weak comparison; `*` matches any existing object. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(etag.replace(/^W\//, ''));
}
