/**
 * Undoing PNG row filters (None, Sub, Up, Average, Paeth) for 8-bit RGB and RGBA. RGBA rows take four bytes
 * at a time for Sub, Up and Average (byte lanes in one 32-bit word, no carry between lanes): an icon is
 * converted once per upload, mostly before the JIT has compiled these loops, so fewer iterations is what counts.
 */

/** A PNG this code cannot read. */
export class PngError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PngError';
  }
}

const LOW7 = 0x7f7f7f7f;
const HIGH1 = 0x80808080;
const NOT_LOW1 = 0xfefefefe;

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const dl = Math.abs(estimate - left);
  const du = Math.abs(estimate - up);
  const dul = Math.abs(estimate - upLeft);
  if (dl <= du && dl <= dul) return left;
  return du <= dul ? up : upLeft;
}

/** One row, a byte at a time, into `out` at `row`; `previous` is the row above (zeros for the first). */
function unfilterRowBytes(
  filter: number,
  data: Uint8Array,
  source: number,
  out: Uint8Array,
  row: number,
  previous: Uint8Array,
  stride: number,
  bpp: number,
): void {
  // Typed-array stores wrap modulo 256, as the filters require.
  switch (filter) {
    case 0:
      out.set(data.subarray(source, source + stride), row);
      return;
    case 1:
      out.set(data.subarray(source, source + bpp), row);
      for (let x = bpp; x < stride; x += 1)
        out[row + x] = (data[source + x] as number) + (out[row + x - bpp] as number);
      return;
    case 2:
      for (let x = 0; x < stride; x += 1) out[row + x] = (data[source + x] as number) + (previous[x] as number);
      return;
    case 3:
      for (let x = 0; x < bpp; x += 1) out[row + x] = (data[source + x] as number) + ((previous[x] as number) >> 1);
      for (let x = bpp; x < stride; x += 1)
        out[row + x] = (data[source + x] as number) + (((out[row + x - bpp] as number) + (previous[x] as number)) >> 1);
      return;
    case 4:
      // With no left neighbour Paeth predicts the byte above.
      for (let x = 0; x < bpp; x += 1) out[row + x] = (data[source + x] as number) + (previous[x] as number);
      for (let x = bpp; x < stride; x += 1) {
        out[row + x] =
          (data[source + x] as number) +
          paeth(out[row + x - bpp] as number, previous[x] as number, previous[x - bpp] as number);
      }
      return;
    default:
      throw new PngError(`bad filter ${String(filter)}`);
  }
}

/**
 * One RGBA row of Sub, Up or Average, a pixel (32-bit word) at a time; false for the other filters.
 * Lane-wise a + b is ((a & 0x7f…) + (b & 0x7f…)) ^ ((a ^ b) & 0x80…), ⌊(a + b) / 2⌋ is (a & b) + (((a ^ b) & 0xfe…) >>> 1).
 */
function unfilterRowWords(
  filter: number,
  raw: Uint32Array,
  out: Uint32Array,
  word: number,
  above: Uint32Array,
  aboveWord: number,
  width: number,
): boolean {
  if (filter === 1) {
    let left = 0;
    for (let x = 0; x < width; x += 1) {
      const value = raw[x] as number;
      left = ((value & LOW7) + (left & LOW7)) ^ ((value ^ left) & HIGH1);
      out[word + x] = left;
    }
    return true;
  }
  if (filter === 2) {
    for (let x = 0; x < width; x += 1) {
      const value = raw[x] as number;
      const up = above[aboveWord + x] as number;
      out[word + x] = ((value & LOW7) + (up & LOW7)) ^ ((value ^ up) & HIGH1);
    }
    return true;
  }
  if (filter === 3) {
    let left = 0;
    for (let x = 0; x < width; x += 1) {
      const value = raw[x] as number;
      const up = above[aboveWord + x] as number;
      const average = (left & up) + (((left ^ up) & NOT_LOW1) >>> 1);
      left = ((value & LOW7) + (average & LOW7)) ^ ((value ^ average) & HIGH1);
      out[word + x] = left;
    }
    return true;
  }
  return false;
}

/** Undoes the per-row filters of `data` (rows of `1 + width × bpp` bytes); returns the rows without filter bytes. */
export function unfilter(data: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  if (data.length < (stride + 1) * height) throw new PngError('image data too short');
  // Own ArrayBuffers: 4-byte aligned, so RGBA rows can be read as words.
  const out = new Uint8Array(new ArrayBuffer(stride * height));
  const zeros = new Uint8Array(new ArrayBuffer(stride));
  const words = bpp === 4 ? new Uint32Array(out.buffer) : null;
  const rawBytes = new Uint8Array(new ArrayBuffer(stride));
  const raw = bpp === 4 ? new Uint32Array(rawBytes.buffer) : null;
  const zeroWords = bpp === 4 ? new Uint32Array(zeros.buffer) : null;
  for (let y = 0; y < height; y += 1) {
    const source = y * (stride + 1) + 1;
    const filter = data[source - 1] as number;
    const row = y * stride;
    if (words && raw && zeroWords && filter >= 1 && filter <= 3) {
      rawBytes.set(data.subarray(source, source + stride));
      unfilterRowWords(
        filter,
        raw,
        words,
        y * width,
        y === 0 ? zeroWords : words,
        y === 0 ? 0 : (y - 1) * width,
        width,
      );
    } else {
      unfilterRowBytes(filter, data, source, out, row, y === 0 ? zeros : out.subarray(row - stride, row), stride, bpp);
    }
  }
  return Buffer.from(out.buffer, 0, out.length);
}
