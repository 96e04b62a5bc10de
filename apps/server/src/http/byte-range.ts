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
