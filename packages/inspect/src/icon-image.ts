import { convertCgbiToPng, isCgbiPng } from './cgbi-png.ts';
import { sniffImage } from './image-info.ts';
import type { PackageIcon } from './types.ts';

/**
 * Largest icon decoded, as in the CgBI converter: sharp's own default (268 M pixels) lets a small WebP decode to
 * a gigabyte of native memory, which no heap limit sees.
 */
const MAX_ICON_PIXELS = 4096 * 4096;

/** sharp loads a native library; only pay for it when a WebP or layered icon needs it. Inputs are held to MAX_ICON_PIXELS. */
async function loadSharp() {
  const sharp = (await import('sharp')).default;
  return (input: Buffer) => sharp(input, { limitInputPixels: MAX_ICON_PIXELS });
}

/**
 * Turns icon bytes from a package into a storable image: CgBI → PNG (our converter), WebP → PNG (sharp),
 * PNG and JPEG as they are. Returns null when the bytes are no image or cannot be converted.
 */
export async function toStorableIcon(bytes: Buffer, sourcePath: string): Promise<PackageIcon | null> {
  const info = sniffImage(bytes);
  if (!info) return null;
  if (info.format === 'png' && isCgbiPng(bytes)) {
    try {
      const data = convertCgbiToPng(bytes);
      return { format: 'png', data, width: info.width, height: info.height, sourcePath, convertedFrom: 'cgbi' };
    } catch {
      return null;
    }
  }
  if (info.format === 'webp') {
    try {
      const sharp = await loadSharp();
      const { data, info: output } = await sharp(bytes).png().toBuffer({ resolveWithObject: true });
      return { format: 'png', data, width: output.width, height: output.height, sourcePath, convertedFrom: 'webp' };
    } catch {
      return null;
    }
  }
  return { format: info.format, data: bytes, width: info.width, height: info.height, sourcePath, convertedFrom: null };
}

export interface IconLayer {
  bytes: Buffer;
  path: string;
}

/** Draws an adaptive icon's foreground over its background (image or ARGB colour) as a PNG. */
export async function composeAdaptiveIcon(
  foreground: IconLayer,
  background: IconLayer | { color: number },
): Promise<PackageIcon | null> {
  try {
    const sharp = await loadSharp();
    const front = sharp(foreground.bytes);
    const { width, height } = await front.metadata();
    if (!width || !height || width * height > MAX_ICON_PIXELS) return null;
    const base =
      'color' in background
        ? (await import('sharp')).default({
            create: {
              width,
              height,
              channels: 4,
              background: {
                r: (background.color >>> 16) & 0xff,
                g: (background.color >>> 8) & 0xff,
                b: background.color & 0xff,
                alpha: ((background.color >>> 24) & 0xff) / 255,
              },
            },
          })
        : sharp(background.bytes).resize(width, height, { fit: 'cover' });
    const frontPng = await front.png().toBuffer();
    const data = await base
      .composite([{ input: frontPng }])
      .png()
      .toBuffer();
    return { format: 'png', data, width, height, sourcePath: foreground.path, convertedFrom: 'adaptive-layers' };
  } catch {
    return null;
  }
}
