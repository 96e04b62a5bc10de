import { describe, expect, it } from 'vitest';
import { composeContent } from '../modules/messaging/compose.ts';
import { createMediaLinks, mediaKeyOf, storedMediaUrl } from './media-links.ts';

const KEY = 'media/2026/11/0f8e7a52-6a3c-4d0e-9a53-1c2b3d4e5f60.png';
const DAY = 24 * 3600_000;
const start = Date.UTC(2026, 10, 27, 15, 30);

function links() {
  let now = start;
  return {
    links: createMediaLinks({ secret: 's'.repeat(32), clock: { now: () => now } }),
    advance: (ms: number) => (now += ms),
  };
}
const query = (url: string) => {
  const params = new URL(url, 'http://x').searchParams;
  return { expires: Number(params.get('expires')), signature: params.get('signature') ?? '' };
};

describe('media links', () => {
  it('keeps /api/media/<key> of any form a client sends back, and other addresses as they are', () => {
    for (const sent of [
      `/api/media/${KEY}`,
      `https://release.example.com/api/media/${KEY}?expires=1&signature=abc`,
      `http://10.0.0.2:8080/api/media/${KEY}#x`,
    ])
      expect(storedMediaUrl(sent)).toBe(`/api/media/${KEY}`);
    for (const other of [
      'https://cdn.example.com/logo.png',
      '/static/api/media/x',
      `https://a.example.com/proxy/api/media/${KEY}`,
      `/api/media/media/2026/11/not-a-key.png`,
    ]) {
      expect(storedMediaUrl(other)).toBe(other);
      expect(mediaKeyOf(other)).toBeNull();
    }
    expect(storedMediaUrl(null)).toBeNull();
  });

  it('signs a page link for the rest of the day and the next one, the same all day; a push link for a month', () => {
    const { links: l, advance } = links();
    const page = l.signed(`/api/media/${KEY}`) ?? '';
    expect(page).toMatch(new RegExp(`^/api/media/${KEY}\\?expires=\\d+&signature=[\\w-]+$`));
    expect(query(page).expires).toBe(Date.UTC(2026, 10, 29));
    expect(l.verify(KEY, query(page))).toBe(true);
    advance(2 * 3600_000);
    expect(l.signed(`/api/media/${KEY}`)).toBe(page);
    const push = l.signed(`/api/media/${KEY}`, 'https://release.example.com', 'push') ?? '';
    expect(push.startsWith(`https://release.example.com/api/media/${KEY}?`)).toBe(true);
    expect(query(push).expires).toBe(Date.UTC(2026, 10, 27) + 31 * DAY);
    advance(2 * DAY);
    expect(l.verify(KEY, query(page))).toBe(false);
    expect(l.verify(KEY, query(push))).toBe(true);
  });

  it('refuses a missing, forged or moved signature, and leaves other sites unsigned', () => {
    const { links: l } = links();
    const { expires, signature } = query(l.forKey(KEY));
    expect(l.verify(KEY, {})).toBe(false);
    expect(l.verify(KEY, { expires: expires + 1, signature })).toBe(false);
    expect(l.verify(KEY.replace('.png', '.jpg'), { expires, signature })).toBe(false);
    expect(
      createMediaLinks({ secret: 't'.repeat(32), clock: { now: () => start } }).verify(KEY, { expires, signature }),
    ).toBe(false);
    expect(l.signed('https://cdn.example.com/logo.png')).toBe('https://cdn.example.com/logo.png');
    expect(l.signed(null)).toBeNull();
  });

  it('gives WeCom pushes a signed icon on the public address, and none without one', () => {
    const { links: l } = links();
    const app = {
      id: 1,
      app_name: '星际战舰',
      app_icon: `/api/media/${KEY}`,
      path: 'star',
      dev_wecom_url: null,
      prod_wecom_url: null,
    };
    const sent = composeContent({
      app,
      workflow: null,
      version: null,
      commits: [],
      totalCommits: 0,
      baseUrl: 'https://release.example.com',
      mediaLinks: l,
    });
    expect(sent.iconUrl?.startsWith(`https://release.example.com/api/media/${KEY}?expires=`)).toBe(true);
    expect(l.verify(KEY, query(sent.iconUrl ?? ''))).toBe(true);
    expect(
      composeContent({ app, workflow: null, version: null, commits: [], totalCommits: 0, baseUrl: null, mediaLinks: l })
        .iconUrl,
    ).toBeNull();
    const elsewhere = { ...app, app_icon: 'https://cdn.example.com/logo.png' };
    expect(
      composeContent({
        app: elsewhere,
        workflow: null,
        version: null,
        commits: [],
        totalCommits: 0,
        baseUrl: null,
        mediaLinks: l,
      }).iconUrl,
    ).toBe('https://cdn.example.com/logo.png');
  });
});
