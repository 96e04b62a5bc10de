import { describe, expect, it } from 'vitest';
import { isSnapshotMedia, pickedVersionIds, pickOrder, picksOf } from './snapshot.ts';

const version = (appVersionId: number) => ({
  appVersionId,
  indexNo: appVersionId,
  appVersion: '1.0',
  build: '1',
  removed: false,
});

describe('snapshot drawer rules', () => {
  it('accepts only jpeg, png, mp4, webm and quicktime files', () => {
    for (const type of ['image/jpeg', 'image/png', 'video/mp4', 'video/webm', 'video/quicktime'])
      expect(isSnapshotMedia(type)).toBe(true);
    for (const type of ['image/gif', 'image/webp', 'application/pdf', '']) expect(isSnapshotMedia(type)).toBe(false);
  });

  it('binds the versions of ticked kinds only', () => {
    const picks = picksOf({ ipa: [version(1)], apk: [], zip: [version(3)], hap: [version(4)] });
    expect(picks.ipa).toEqual({ enabled: true, ids: [1] });
    expect(picks.apk).toEqual({ enabled: false, ids: [] });
    expect(picks.hap).toEqual({ enabled: true, ids: [4] });
    expect(
      pickedVersionIds({ ...picks, zip: { enabled: false, ids: [3] }, apk: { enabled: true, ids: [2, 1] } }),
    ).toEqual([1, 2, 4]);
  });

  it('adds files picked together in the order picked, whichever upload finishes first', () => {
    const order = pickOrder();
    const [a, b, c] = [order.take(), order.take(), order.take()];
    expect(order.settle(c, 'c.png')).toEqual([]);
    expect(order.settle(b, null)).toEqual([]);
    expect(order.settle(a, 'a.png')).toEqual(['a.png', 'c.png']);
    const d = order.take();
    expect(order.settle(d, 'd.png')).toEqual(['d.png']);
  });
});
