import { describe, expect, it } from 'vitest';
import { attachmentDisposition, ifRangeHolds, noneMatch, parseByteRange, strongEtag } from './byte-range.ts';

describe('parseByteRange', () => {
  it('reads start-end, open-ended and suffix ranges', () => {
    expect(parseByteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
  });
  it('serves the whole body without or with an unreadable header, and refuses ranges past the end', () => {
    expect(parseByteRange(undefined, 10)).toBeNull();
    expect(parseByteRange('items=0-1', 10)).toBeNull();
    expect(parseByteRange('bytes=0-1,3-4', 10)).toBeNull();
    expect(parseByteRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=5-2', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 10)).toBe('unsatisfiable');
  });
});

describe('attachmentDisposition', () => {
  it('keeps Chinese names in filename* and gives an ASCII fallback', () => {
    expect(attachmentDisposition('游戏 1.2.ipa')).toBe(
      `attachment; filename="__ 1.2.ipa"; filename*=UTF-8''%E6%B8%B8%E6%88%8F%201.2.ipa`,
    );
  });
});

describe('conditional downloads', () => {
  const current = { etag: strongEtag(['k', 10, 1n]), lastModifiedMs: Date.UTC(2026, 0, 1, 8, 0, 0, 450) };
  const now = current.lastModifiedMs + 60_000;
  it('serves a range only for the same strong ETag or the exact Last-Modified date once it is strong', () => {
    expect(ifRangeHolds(undefined, current, now)).toBe(true);
    expect(ifRangeHolds(current.etag, current, now)).toBe(true);
    expect(ifRangeHolds(`W/${current.etag}`, current, now)).toBe(false);
    expect(ifRangeHolds(strongEtag(['k', 10, 2n]), current, now)).toBe(false);
    expect(ifRangeHolds('Thu, 01 Jan 2026 08:00:00 GMT', current, now)).toBe(true);
    expect(ifRangeHolds('Thu, 01 Jan 2026 07:59:59 GMT', current, now)).toBe(false);
    expect(ifRangeHolds('Thu, 01 Jan 2026 08:00:00 GMT', current, current.lastModifiedMs + 500)).toBe(false);
    expect(ifRangeHolds('not a date', current, now)).toBe(false);
  });
  it('matches If-None-Match weakly, in a list, or by *', () => {
    expect(noneMatch(undefined, current.etag)).toBe(false);
    expect(noneMatch(`"x", W/${current.etag}`, current.etag)).toBe(true);
    expect(noneMatch('*', current.etag)).toBe(true);
    expect(noneMatch('"x"', current.etag)).toBe(false);
  });
});
