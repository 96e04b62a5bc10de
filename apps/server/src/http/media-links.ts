import type { Clock } from '../lib/clock.ts';
import { createUrlSigner } from '../storage/url-signer.ts';
import { MEDIA_ROUTE } from './links.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A media key as the server makes them (media.service.ts mediaKey). */
export const MEDIA_KEY = /^media\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.(png|jpg|gif|webp|mp4|webm|mov)$/;

/**
 * How long a link lives. Links are made per UTC day (the same link all day, so browsers and the install page keep
 * their cached copies) and end that many days after the day they were made in.
 */
export type MediaLinkLife = 'page' | 'push';
const LIFE_DAYS: Record<MediaLinkLife, number> = {
  // Console and install page answers: a page fetched now keeps working at least a day.
  page: 2,
  // Robot messages (WeCom news picurl) stay in chats: their pictures load for a month.
  push: 31,
};

/** The media key a stored or presented link points at (relative or absolute, signed or not); null for any other URL. */
export function mediaKeyOf(url: string | null | undefined): string | null {
  if (!url) return null;
  const at = url.indexOf(MEDIA_ROUTE);
  if (at === -1) return null;
  // Only our own links: `/api/media/…` or `<scheme>://<host>/api/media/…`, never a path merely containing it.
  const before = url.slice(0, at);
  if (before !== '' && !/^https?:\/\/[^/?#]+$/i.test(before)) return null;
  const key = url.slice(at + MEDIA_ROUTE.length).split(/[?#]/)[0] ?? '';
  return MEDIA_KEY.test(key) ? key : null;
}

/** What a record keeps of a link a client sent: `/api/media/<key>` for our media (signature and host dropped), anything else as given. */
export function storedMediaUrl<T extends string | null | undefined>(url: T): T | string {
  const key = mediaKeyOf(url);
  return key ? `${MEDIA_ROUTE}${key}` : url;
}

export interface SignedMediaQuery {
  expires: number;
  signature: string;
}

/**
 * Signed, expiring links to stored icons, screenshots and videos. Records keep `/api/media/<key>` (whatever form a
 * client sent: a signed link, an absolute one); answers that passed the app's permit check — and the install page, the
 * manifest and pushes, which are made for those allowed to install — carry links signed for that key. A bare key is
 * refused, so nobody fetches media without having been shown it.
 */
export function createMediaLinks(deps: { secret: string; clock: Clock }) {
  const signer = createUrlSigner(deps.secret);
  const fields = (key: string, expires: number) => ['media', key, expires];

  function signedPath(key: string, life: MediaLinkLife): string {
    const expires = (Math.floor(deps.clock.now() / DAY_MS) + LIFE_DAYS[life]) * DAY_MS;
    return `${MEDIA_ROUTE}${key}?expires=${expires}&signature=${signer.sign(fields(key, expires))}`;
  }

  return {
    /** A stored link as shown to someone allowed to see it: our media signed (on `base`, '' for a relative link); other URLs as they are. */
    signed(url: string | null, base = '', life: MediaLinkLife = 'page'): string | null {
      const key = mediaKeyOf(url);
      return key ? `${base}${signedPath(key, life)}` : url;
    },
    /** The signed link of a key (a version's icon). */
    forKey(key: string, base = '', life: MediaLinkLife = 'page'): string {
      return `${base}${signedPath(key, life)}`;
    },
    /** Whether a request for `key` carries a signature we made for it that has not expired. */
    verify(key: string, query: Partial<SignedMediaQuery>): boolean {
      const { expires, signature } = query;
      if (typeof expires !== 'number' || !Number.isFinite(expires) || typeof signature !== 'string') return false;
      return expires > deps.clock.now() && signer.verify(fields(key, expires), signature);
    },
    /** Seconds a verified link has left, for the cache lifetime of its answer. */
    secondsLeft: (expires: number) => Math.max(0, Math.floor((expires - deps.clock.now()) / 1000)),
  };
}
export type MediaLinks = ReturnType<typeof createMediaLinks>;
