import { describe, expect, it } from 'vitest';
import { selectedMenuKey } from './menu-key.ts';

describe('the highlighted top-menu entry', () => {
  it('is 应用管理 on the app pages and on a committer’s trend, which is reached from them', () => {
    expect(selectedMenuKey('/home/app/star')).toBe('/home/app');
    expect(selectedMenuKey('/trend/%E7%8E%8B%E5%B0%8F%E6%98%8E')).toBe('/home/app');
    expect(selectedMenuKey('/home/wiki')).toBe('/home/wiki');
    expect(selectedMenuKey('/home/setting/user-manage')).toBe('/home/setting');
    expect(selectedMenuKey('/home/notification')).toBe('');
  });
});
