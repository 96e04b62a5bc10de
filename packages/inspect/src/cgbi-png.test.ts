import { deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { convertCgbiToPng, isCgbiPng, PngError } from './cgbi-png.ts';
import { makeCgbiPng, makePng, patternImage } from './testing/images.ts';

async function rgbaOf(png: Buffer): Promise<Buffer> {
  return sharp(png).ensureAlpha().raw().toBuffer();
}

describe('convertCgbiToPng', () => {
  it('turns an Xcode CgBI icon back into a PNG that a normal decoder reads with the original colours', async () => {
    const image = patternImage(20, 12);
    const cgbi = makeCgbiPng(image);
    expect(isCgbiPng(cgbi)).toBe(true);
    await expect(sharp(cgbi).raw().toBuffer()).rejects.toThrow();

    const png = convertCgbiToPng(cgbi);
    expect(isCgbiPng(png)).toBe(false);
    const pixels = await rgbaOf(png);
    expect(pixels.length).toBe(image.pixels.length);
    for (let at = 0; at < pixels.length; at += 4) {
      const alpha = image.pixels[at + 3] as number;
      expect(pixels[at + 3]).toBe(alpha);
      if (alpha === 0) continue;
      // Premultiplying loses precision below full alpha; un-premultiplying must land within rounding.
      const tolerance = Math.ceil(255 / alpha);
      for (let channel = 0; channel < 3; channel += 1) {
        expect(Math.abs((pixels[at + channel] as number) - (image.pixels[at + channel] as number))).toBeLessThanOrEqual(
          tolerance,
        );
      }
    }
  });

  it('un-premultiplies exactly: min(255, round(value × 255 / alpha)), through every filter type', async () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed >> 23;
    };
    const image = { width: 37, height: 23, pixels: Buffer.alloc(37 * 23 * 4) };
    for (let at = 0; at < image.pixels.length; at += 1) image.pixels[at] = next() & 0xff;
    for (let at = 3; at < image.pixels.length; at += 16) image.pixels[at] = at % 32 === 3 ? 255 : 0;
    const cgbi = makeCgbiPng(image);
    const premultiplied = (value: number, alpha: number) => Math.round((value * alpha) / 255);
    const pixels = await rgbaOf(convertCgbiToPng(cgbi));
    for (let at = 0; at < pixels.length; at += 4) {
      const alpha = image.pixels[at + 3] as number;
      for (let channel = 0; channel < 3; channel += 1) {
        const expected =
          alpha === 0
            ? 0
            : Math.min(255, Math.round((premultiplied(image.pixels[at + channel] as number, alpha) * 255) / alpha));
        expect(pixels[at + channel]).toBe(expected);
      }
      expect(pixels[at + 3]).toBe(alpha);
    }
  });

  it('swaps BGRA back to RGBA (red stays red)', async () => {
    const red = {
      width: 2,
      height: 2,
      pixels: Buffer.from([255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255]),
    };
    const pixels = await rgbaOf(convertCgbiToPng(makeCgbiPng(red)));
    expect([...pixels.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
  });

  it('returns a standard PNG untouched', () => {
    const png = makePng(patternImage(4, 4));
    expect(convertCgbiToPng(png)).toBe(png);
  });

  it('fails with PngError on a damaged CgBI file', () => {
    const cgbi = makeCgbiPng(patternImage(8, 8));
    expect(() => convertCgbiToPng(cgbi.subarray(0, 60))).toThrow(PngError);
  });

  it('inflates no more than the scanlines its header announces (a 10 KB IDAT of 10 MB is refused)', () => {
    const bomb = makeCgbiPng(patternImage(16, 16), deflateRawSync(Buffer.alloc(10 * 1024 * 1024)));
    expect(bomb.length).toBeLessThan(20 * 1024);
    expect(() => convertCgbiToPng(bomb)).toThrow(PngError);
  });
});
