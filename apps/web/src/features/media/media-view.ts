/** SPEC §9 media viewer limits. */
export const ZOOM_STEP = 0.48;
export const MIN_SCALE = 0.1;
/** The largest zoom shows the image at 3 times its natural size. */
export const MAX_NATURAL_SCALE = 3;
export const ROTATE_STEP = 90;
export const WHEEL_THROTTLE_MS = 80;

/**
 * The largest scale of an image drawn `displayedWidth` px wide (scale 1 = fitted to the screen) so it
 * never grows past 3 times its natural width; never below 1, so a large image can still be zoomed.
 */
export function maxScaleFor(naturalWidth: number, displayedWidth: number): number {
  if (naturalWidth <= 0 || displayedWidth <= 0) return MAX_NATURAL_SCALE;
  return Math.max(1, (MAX_NATURAL_SCALE * naturalWidth) / displayedWidth);
}

export function clampScale(scale: number, maxScale: number): number {
  return Math.min(maxScale, Math.max(MIN_SCALE, Math.round(scale * 100) / 100));
}

/**
 * Whether one more step in (1) or out (-1) stays inside SPEC §9's range: in up to the largest scale, out only while
 * the result stays above 0.1 (the minimum is exclusive), so the zoom-out stops at 0.52.
 */
export function canZoom(scale: number, direction: 1 | -1, maxScale: number): boolean {
  if (direction === 1) return scale < maxScale;
  return Math.round((scale - ZOOM_STEP) * 100) / 100 > MIN_SCALE;
}

/** One zoom step in (1) or out (-1); in stops at the largest scale, and at a limit the scale stays as it is. */
export function zoomBy(scale: number, direction: 1 | -1, maxScale: number): number {
  return canZoom(scale, direction, maxScale) ? clampScale(scale + direction * ZOOM_STEP, maxScale) : scale;
}

/** Rotation accumulates (no wrap to 0) so the CSS transition always turns the short way. */
export function rotateBy(degrees: number, direction: 1 | -1): number {
  return degrees + direction * ROTATE_STEP;
}

/** Index of the neighbouring item, wrapping around at both ends. */
export function wrapIndex(index: number, delta: number, count: number): number {
  if (count <= 0) return 0;
  return (((index + delta) % count) + count) % count;
}

/** Calls fn at most once per `wait` ms; calls inside the window are dropped (wheel zoom). */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  wait: number,
  now: () => number = Date.now,
): (...args: A) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (...args: A) => {
    const time = now();
    if (time - last < wait) return;
    last = time;
    fn(...args);
  };
}

/** SPEC §5: thumbnails are drawn only for jpg, jpeg, png, gif and bmp images. */
export function isThumbnailImage(url: string): boolean {
  return /\.(jpe?g|png|gif|bmp)(\?|#|$)/i.test(url);
}

/** The file name at the end of a link, for titles and downloads. */
export function fileNameOf(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name) || url;
  } catch {
    return name || url;
  }
}
