import { isPng } from './cgbi-png.ts';
import type { IconFormat } from './types.ts';

export interface ImageInfo {
  format: IconFormat;
  width: number | null;
  height: number | null;
}

function pngInfo(bytes: Buffer): ImageInfo {
  // CgBI files put their own chunk before IHDR.
  const ihdrAt = bytes.indexOf('IHDR', 8, 'latin1');
  if (ihdrAt < 0 || ihdrAt + 12 > bytes.length) return { format: 'png', width: null, height: null };
  return { format: 'png', width: bytes.readUInt32BE(ihdrAt + 4), height: bytes.readUInt32BE(ihdrAt + 8) };
}

function webpInfo(bytes: Buffer): ImageInfo {
  const kind = bytes.toString('latin1', 12, 16);
  if (kind === 'VP8 ' && bytes.length >= 30) {
    return { format: 'webp', width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (kind === 'VP8L' && bytes.length >= 25) {
    const bits = bytes.readUInt32LE(21);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (kind === 'VP8X' && bytes.length >= 30) {
    return { format: 'webp', width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  return { format: 'webp', width: null, height: null };
}

function jpegInfo(bytes: Buffer): ImageInfo {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1] as number;
    const length = bytes.readUInt16BE(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { format: 'jpeg', width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
    at += 2 + length;
  }
  return { format: 'jpeg', width: null, height: null };
}

/** Format and pixel size from the first bytes; null when it is no image we can store. */
export function sniffImage(bytes: Buffer): ImageInfo | null {
  if (isPng(bytes)) return pngInfo(bytes);
  if (bytes.length >= 16 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return webpInfo(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegInfo(bytes);
  return null;
}
