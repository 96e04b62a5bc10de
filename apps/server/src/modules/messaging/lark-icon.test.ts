import { describe, expect, it } from 'vitest';
import { storedIconKey } from './lark-icon.ts';

const KEY = 'media/2026/11/0f8e7a52-6a3c-4d0e-9a53-1c2b3d4e5f60';

describe('storedIconKey: only icons we store are uploaded to Lark', () => {
  it('reads the media key of a relative or absolute /api/media address, png, jpg, gif or webp (package icons)', () => {
    expect(storedIconKey(`/api/media/${KEY}.png`)).toBe(`${KEY}.png`);
    expect(storedIconKey(`https://release.example.com/api/media/${KEY}.jpg?v=2`)).toBe(`${KEY}.jpg`);
    expect(storedIconKey(`/api/media/${KEY}.webp`)).toBe(`${KEY}.webp`);
  });

  it('takes nothing else: no icon, a video, a path outside the media keys, another site’s picture', () => {
    for (const icon of [
      null,
      '',
      `/api/media/${KEY}.mp4`,
      '/api/media/../../release.db',
      '/api/media/icon.png',
      'https://cdn.example.com/logo.png',
    ]) {
      expect([icon, storedIconKey(icon)]).toEqual([icon, null]);
    }
  });
});
