import { crc32, deflateSync, inflateRawSync, inflateSync } from 'node:zlib';
import { PngError, unfilter } from './png-filters.ts';

export { PngError };

/**
 * Xcode's "optimized" PNG (CgBI): an extra `CgBI` chunk, raw-deflate IDAT without zlib header,
 * BGRA byte order and premultiplied alpha. Browsers and sharp cannot read it; this turns it back
 * into a plain RGBA PNG.
 */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_PIXELS = 4096 * 4096;

interface PngChunk {
  type: string;
  data: Buffer;
}

export function isPng(bytes: Buffer): boolean {
  return bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

export function readPngChunks(bytes: Buffer): PngChunk[] {
  if (!isPng(bytes)) throw new PngError('not a PNG');
  const chunks: PngChunk[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) throw new PngError('truncated chunk');
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
    if (type === 'IEND') break;
  }
  return chunks;
}

export function isCgbiPng(bytes: Buffer): boolean {
  return isPng(bytes) && bytes.toString('latin1', 12, 16) === 'CgBI';
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(Buffer.from(type, 'latin1'))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function encodePng(header: Buffer, rawScanlines: Buffer): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rawScanlines)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Inflates to at most the scanlines the header announces (`expected`), so a small IDAT cannot inflate to gigabytes. */
function inflateIdat(idat: Buffer, expected: number): Buffer {
  const options = { maxOutputLength: expected };
  try {
    return inflateRawSync(idat, options);
  } catch {
    // Some tools leave the zlib header in place even in CgBI files.
  }
  try {
    return inflateSync(idat, options);
  } catch {
    throw new PngError('image data does not inflate');
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** min(255, round(value × 255 / alpha)) in integers (equal for every value and 0 < alpha < 255). */
function unpremultiplied(value: number, alpha: number): number {
  const straight = ((value * 510 + alpha) / (alpha * 2)) | 0;
  return Math.min(straight, 255);
}

/** Row `alpha` of the un-premultiply table, filled on first use (an icon has few distinct partial alphas). */
function fillTableRow(table: Uint8Array, alpha: number): void {
  for (let value = 0; value < 256; value += 1) table[(alpha << 8) | value] = unpremultiplied(value, alpha);
}

/**
 * Premultiplied BGRA → straight RGBA in place, a pixel (little-endian word 0xAARRGGBB) at a time. Opaque
 * pixels (most of an app icon) only swap red and blue; transparent ones become 0.
 */
function straightenWords(pixels: Buffer): void {
  const words = new Uint32Array(pixels.buffer, pixels.byteOffset, pixels.length >> 2);
  const table = new Uint8Array(65536);
  const filled = new Uint8Array(256);
  for (let i = 0; i < words.length; i += 1) {
    const pixel = words[i] as number;
    const alpha = pixel >>> 24;
    if (alpha === 255) {
      words[i] = (pixel & 0xff00ff00) | ((pixel >>> 16) & 0xff) | ((pixel & 0xff) << 16);
    } else if (alpha === 0) {
      words[i] = 0;
    } else {
      if (filled[alpha] === 0) {
        fillTableRow(table, alpha);
        filled[alpha] = 1;
      }
      const row = alpha << 8;
      const red = table[row | ((pixel >>> 16) & 0xff)] as number;
      const green = table[row | ((pixel >>> 8) & 0xff)] as number;
      const blue = table[row | (pixel & 0xff)] as number;
      words[i] = (alpha << 24) | (blue << 16) | (green << 8) | red;
    }
  }
}

/** Premultiplied BGR(A) → straight RGB(A) in place, a byte at a time (RGB, or a big-endian machine). */
function straightenBytes(pixels: Buffer, bpp: number): void {
  for (let at = 0; at < pixels.length; at += bpp) {
    const alpha = bpp === 4 ? (pixels[at + 3] as number) : 255;
    const blue = pixels[at] as number;
    if (alpha === 255) {
      pixels[at] = pixels[at + 2] as number;
      pixels[at + 2] = blue;
    } else if (alpha === 0) {
      pixels.fill(0, at, at + 3);
    } else {
      pixels[at] = unpremultiplied(pixels[at + 2] as number, alpha);
      pixels[at + 1] = unpremultiplied(pixels[at + 1] as number, alpha);
      pixels[at + 2] = unpremultiplied(blue, alpha);
    }
  }
}

/** Straight RGB(A) rows, each behind a 0 (None) filter byte, from premultiplied BGR(A) rows. */
function toStraightScanlines(pixels: Buffer, width: number, height: number, bpp: number): Buffer {
  if (bpp === 4 && LITTLE_ENDIAN && pixels.byteOffset % 4 === 0) straightenWords(pixels);
  else straightenBytes(pixels, bpp);
  const stride = width * bpp;
  const scanlines = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) pixels.copy(scanlines, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return scanlines;
}

/** Converts a CgBI PNG into a standard PNG; a standard PNG is returned unchanged. Throws PngError. */
export function convertCgbiToPng(bytes: Buffer): Buffer {
  if (!isCgbiPng(bytes)) return bytes;
  const chunks = readPngChunks(bytes);
  const ihdr = chunks.find((item) => item.type === 'IHDR')?.data;
  if (!ihdr || ihdr.length < 13) throw new PngError('no IHDR');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const bitDepth = ihdr[8];
  const colorType = ihdr[9];
  const interlace = ihdr[12];
  if (bitDepth !== 8 || (colorType !== 6 && colorType !== 2) || interlace !== 0)
    throw new PngError('unsupported CgBI layout');
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw new PngError('bad dimensions');
  const bpp = colorType === 6 ? 4 : 3;
  const idat = Buffer.concat(chunks.filter((item) => item.type === 'IDAT').map((item) => item.data));
  const scanlines = toStraightScanlines(
    unfilter(inflateIdat(idat, height * (width * bpp + 1)), width, height, bpp),
    width,
    height,
    bpp,
  );
  return encodePng(Buffer.from(ihdr.subarray(0, 13)), scanlines);
}
