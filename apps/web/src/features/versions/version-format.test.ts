import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatSize,
  formatVersionTime,
  isHtmlPackage,
  isIpaPackage,
  versionText,
  versionTitle,
} from './version-format.ts';

const at = (text: string) => new Date(text).getTime();

describe('version formatting', () => {
  it('shows today, yesterday and the day before with the time', () => {
    const now = at('2026-05-10T09:00:00');
    expect(formatVersionTime(at('2026-05-10T08:05:00'), now)).toBe('今天 08:05');
    expect(formatVersionTime(at('2026-05-09T23:59:00'), now)).toBe('昨天 23:59');
    expect(formatVersionTime(at('2026-05-08T00:01:00'), now)).toBe('前天 00:01');
    expect(formatVersionTime(at('2026-05-07T12:00:00'), now)).toBe('05-07 12:00');
    expect(formatVersionTime(at('2025-12-31T12:00:00'), now)).toBe('2025-12-31 12:00');
  });

  it('formats sizes, versions and package kinds', () => {
    expect(formatSize(5 * 1024 * 1024 + 10_486)).toBe('5.01 MB');
    expect(formatSize(300)).toBe('<0.01 MB');
    expect(versionText({ appVersion: '1.2.3', build: '45' })).toBe('1.2.3 (45)');
    expect(versionText({ appVersion: null, build: null })).toBe('-');
    expect(versionTitle({ appVersion: '1.2.3', build: '45', indexNo: 7 })).toBe('1.2.3 (45)');
    // A web build has no version of its own: it is named by its place among the app's uploads, not index.html.
    expect(versionTitle({ appVersion: null, build: null, indexNo: 7 })).toBe('第 7 版');
    expect(isHtmlPackage({ fileName: 'x.zip', cdnUrl: 'https://cdn/a/index.html?sig=1' })).toBe(true);
    expect(isHtmlPackage({ fileName: 'site.zip', cdnUrl: 'https://cdn/a/site.zip?name=a.html' })).toBe(false);
    expect(isIpaPackage({ fileName: 'a.ipa', cdnUrl: 'https://cdn/x' })).toBe(true);
    expect(isIpaPackage({ fileName: 'a.apk', cdnUrl: 'https://cdn/a.apk' })).toBe(false);
  });

  it('says space in the unit that fits: bytes, KB, MB, GB', () => {
    expect([0, 512, 1536, 10 * 1024 + 300, 150 * 1024, 5.5 * 1024 * 1024, 1.2 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 B',
      '512 B',
      '1.50 KB',
      '10.3 KB',
      '150 KB',
      '5.50 MB',
      '1.20 GB',
    ]);
  });
});
