import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { placeholderIcon } from './placeholder-icon.ts';

describe('placeholder icon', () => {
  it('is a 256 px PNG, the same for the same name and different for another', async () => {
    const a = await placeholderIcon('星际战舰');
    const meta = await sharp(a).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 256, height: 256 });
    expect((await placeholderIcon('星际战舰')).equals(a)).toBe(true);
    expect((await placeholderIcon('Another <app>')).equals(a)).toBe(false);
  });
});
