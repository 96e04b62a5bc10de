import { describe, expect, it } from 'vitest';
import {
  canZoom,
  clampScale,
  fileNameOf,
  isThumbnailImage,
  maxScaleFor,
  rotateBy,
  throttle,
  wrapIndex,
  zoomBy,
} from './media-view.ts';

describe('media viewer helpers', () => {
  it('zooms in steps of 0.48 above 0.1 and up to 3x the natural size, and stops at each limit', () => {
    expect(zoomBy(1, 1, 3)).toBe(1.48);
    expect(zoomBy(1.48, 1, 3)).toBe(1.96);
    expect(zoomBy(2.92, 1, 3)).toBe(3);
    expect(zoomBy(3, 1, 3)).toBe(3);
    expect(zoomBy(1, -1, 3)).toBe(0.52);
    // 0.52 - 0.48 is not above 0.1: the zoom-out stops at 0.52.
    expect(zoomBy(0.52, -1, 3)).toBe(0.52);
    expect(clampScale(0.01, 3)).toBe(0.1);
  });

  it('offers a step only while it stays inside the range (the buttons are disabled at the limits)', () => {
    expect(canZoom(2.92, 1, 3)).toBe(true);
    expect(canZoom(3, 1, 3)).toBe(false);
    expect(canZoom(1, -1, 3)).toBe(true);
    expect(canZoom(0.52, -1, 3)).toBe(false);
    expect(canZoom(0.59, -1, 3)).toBe(true);
    expect(canZoom(0.58, -1, 3)).toBe(false);
  });

  it('lets a large image grow to 3x its natural width, a small one to 3x', () => {
    expect(maxScaleFor(4000, 1000)).toBe(12);
    expect(maxScaleFor(200, 200)).toBe(3);
    expect(maxScaleFor(100, 400)).toBe(1);
    expect(maxScaleFor(0, 0)).toBe(3);
  });

  it('rotates by 90 degrees and wraps the neighbour index', () => {
    expect(rotateBy(0, 1)).toBe(90);
    expect(rotateBy(0, -1)).toBe(-90);
    expect(wrapIndex(0, -1, 3)).toBe(2);
    expect(wrapIndex(2, 1, 3)).toBe(0);
    expect(wrapIndex(0, 1, 0)).toBe(0);
  });

  it('throttles calls to one per window', () => {
    let time = 0;
    const calls: number[] = [];
    const wheel = throttle(
      (n: number) => calls.push(n),
      80,
      () => time,
    );
    wheel(1);
    time = 40;
    wheel(2);
    time = 80;
    wheel(3);
    time = 159;
    wheel(4);
    time = 160;
    wheel(5);
    expect(calls).toEqual([1, 3, 5]);
  });

  it('classifies thumbnails and names files', () => {
    expect(isThumbnailImage('https://x/a.JPG?sig=1')).toBe(true);
    expect(isThumbnailImage('https://x/a.webp')).toBe(false);
    expect(fileNameOf('https://x/media/%E5%9B%BE.png?sig=1')).toBe('图.png');
  });
});
