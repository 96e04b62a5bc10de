import { crc32, deflateSync, inflateRawSync, inflateSync } from 'node:zlib';

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

export class PngError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PngError';
  }
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
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rawScanlines)), chunk('IEND', Buffer.alloc(0))]);
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const dl = Math.abs(estimate - left);
  const du = Math.abs(estimate - up);
  const dul = Math.abs(estimate - upLeft);
  if (dl <= du && dl <= dul) return left;
  return du <= dul ? up : upLeft;
}

/** Undoes the per-row PNG filters in place; returns the pixel rows without filter bytes. */
function unfilter(data: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  if (data.length < (stride + 1) * height) throw new PngError('image data too short');
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = data[y * (stride + 1)];
    const row = y * stride;
    const prior = row - stride;
    for (let x = 0; x < stride; x += 1) {
      const raw = data[y * (stride + 1) + 1 + x] as number;
      const left = x >= bpp ? (out[row + x - bpp] as number) : 0;
      const up = y > 0 ? (out[prior + x] as number) : 0;
      const upLeft = y > 0 && x >= bpp ? (out[prior + x - bpp] as number) : 0;
      let value: number;
      switch (filter) {
        case 0: value = raw; break;
        case 1: value = raw + left; break;
        case 2: value = raw + up; break;
        case 3: value = raw + ((left + up) >> 1); break;
        case 4: value = raw + paeth(left, up, upLeft); break;
        default: throw new PngError(`bad filter ${String(filter)}`);
      }
      out[row + x] = value & 0xff;
    }
  }
  return out;
}

function inflateIdat(idat: Buffer): Buffer {
  try {
    return inflateRawSync(idat);
  } catch {
    // Some tools leave the zlib header in place even in CgBI files.
  }
  try {
    return inflateSync(idat);
  } catch {
    throw new PngError('image data does not inflate');
  }
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
  if (bitDepth !== 8 || (colorType !== 6 && colorType !== 2) || interlace !== 0) throw new PngError('unsupported CgBI layout');
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw new PngError('bad dimensions');
  const bpp = colorType === 6 ? 4 : 3;
  const idat = Buffer.concat(chunks.filter((item) => item.type === 'IDAT').map((item) => item.data));
  const pixels = unfilter(inflateIdat(idat), width, height, bpp);
  const stride = width * bpp;
  const scanlines = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const target = y * (stride + 1) + 1;
    for (let x = 0; x < stride; x += bpp) {
      const source = y * stride + x;
      const blue = pixels[source] as number;
      const green = pixels[source + 1] as number;
      const red = pixels[source + 2] as number;
      const alpha = bpp === 4 ? (pixels[source + 3] as number) : 255;
      const scale = (value: number) => (alpha === 0 ? 0 : alpha === 255 ? value : Math.min(255, Math.round((value * 255) / alpha)));
      scanlines[target + x] = scale(red);
      scanlines[target + x + 1] = scale(green);
      scanlines[target + x + 2] = scale(blue);
      if (bpp === 4) scanlines[target + x + 3] = alpha;
    }
  }
  return encodePng(Buffer.from(ihdr.subarray(0, 13)), scanlines);
}
