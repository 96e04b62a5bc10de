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
        expect(Math.abs((pixels[at + channel] as number) - (image.pixels[at + channel] as number))).toBeLessThanOrEqual(tolerance);
      }
    }
  });

  it('swaps BGRA back to RGBA (red stays red)', async () => {
    const red = { width: 2, height: 2, pixels: Buffer.from([255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255]) };
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
});
