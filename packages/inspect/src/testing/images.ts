import { crc32, deflateRawSync, deflateSync } from 'node:zlib';

/** Straight (non-premultiplied) RGBA pixels, row by row. */
export interface RgbaImage {
  width: number;
  height: number;
  pixels: Buffer;
}

/** A test pattern with varied colours and alpha so channel swaps and premultiplication show. */
export function patternImage(width: number, height: number): RgbaImage {
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      pixels[at] = 200;
      pixels[at + 1] = (x * 16) & 0xff;
      pixels[at + 2] = 40;
      pixels[at + 3] = y === 0 ? 255 : y === 1 ? 0 : 128 + ((x * 8) % 128);
    }
  }
  return { width, height, pixels };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(Buffer.from(type, 'latin1'))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function ihdr(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8;
  data[9] = 6;
  return data;
}

/** Applies PNG filter `type` to one row (bpp 4), so a reader has to undo every filter kind. */
function filterRow(type: number, row: Buffer, prior: Buffer | null): Buffer {
  const out = Buffer.alloc(row.length + 1);
  out[0] = type;
  for (let x = 0; x < row.length; x += 1) {
    const left = x >= 4 ? (row[x - 4] as number) : 0;
    const up = prior ? (prior[x] as number) : 0;
    const upLeft = prior && x >= 4 ? (prior[x - 4] as number) : 0;
    const estimate = left + up - upLeft;
    const paeth =
      Math.abs(estimate - left) <= Math.abs(estimate - up) && Math.abs(estimate - left) <= Math.abs(estimate - upLeft)
        ? left
        : Math.abs(estimate - up) <= Math.abs(estimate - upLeft)
          ? up
          : upLeft;
    const predictor = [0, left, up, (left + up) >> 1, paeth][type] ?? 0;
    out[x + 1] = ((row[x] as number) - predictor) & 0xff;
  }
  return out;
}

function scanlines(width: number, height: number, pixels: Buffer): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = pixels.subarray(y * width * 4, (y + 1) * width * 4);
    const prior = y > 0 ? pixels.subarray((y - 1) * width * 4, y * width * 4) : null;
    rows.push(filterRow(y % 5, row, prior));
  }
  return Buffer.concat(rows);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function makePng(image: RgbaImage): Buffer {
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', ihdr(image.width, image.height)),
    pngChunk('IDAT', deflateSync(scanlines(image.width, image.height, image.pixels))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What Xcode writes: CgBI chunk first, BGRA, premultiplied alpha, raw deflate without zlib header. `idat` replaces the image data (hostile tests). */
export function makeCgbiPng(image: RgbaImage, idat?: Buffer): Buffer {
  const bgra = Buffer.alloc(image.pixels.length);
  for (let at = 0; at < image.pixels.length; at += 4) {
    const alpha = image.pixels[at + 3] as number;
    const premultiply = (value: number) => Math.round((value * alpha) / 255);
    bgra[at] = premultiply(image.pixels[at + 2] as number);
    bgra[at + 1] = premultiply(image.pixels[at + 1] as number);
    bgra[at + 2] = premultiply(image.pixels[at] as number);
    bgra[at + 3] = alpha;
  }
  const cgbi = Buffer.from([0x50, 0x00, 0x20, 0x02]);
  return Buffer.concat([
    SIGNATURE,
    pngChunk('CgBI', cgbi),
    pngChunk('IHDR', ihdr(image.width, image.height)),
    pngChunk('IDAT', idat ?? deflateRawSync(scanlines(image.width, image.height, bgra))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
