/** Opaque page tokens: base64url of the next offset and a scope, so a token from one list fails on another. */
export function encodePageToken(offset: number, scope: string): string {
  return Buffer.from(JSON.stringify({ o: offset, s: scope })).toString('base64url');
}

/** Returns the offset, 0 for no token, or null for a token that is not ours (the caller answers its "bad parameter"). */
export function decodePageToken(token: string | null | undefined, scope: string): number | null {
  if (!token) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; s?: unknown };
    return typeof parsed.o === 'number' && parsed.s === scope && parsed.o >= 0 ? parsed.o : null;
  } catch {
    return null;
  }
}

export interface Page<T> {
  items: T[];
  has_more: boolean;
  page_token?: string;
}

export function paginate<T>(all: T[], offset: number, pageSize: number, scope: string): Page<T> {
  const items = all.slice(offset, offset + pageSize);
  const hasMore = offset + pageSize < all.length;
  return hasMore
    ? { items, has_more: true, page_token: encodePageToken(offset + pageSize, scope) }
    : { items, has_more: false };
}
