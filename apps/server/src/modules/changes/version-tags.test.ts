import { describe, expect, it } from 'vitest';
import { versionTagNames } from './version-tags.ts';

describe('tags that name a build', () => {
  it('tries the version with its build first, then the version, then the build', () => {
    expect(versionTagNames('1.4.2', '302')).toEqual([
      'v1.4.2+302',
      '1.4.2+302',
      'v1.4.2-302',
      '1.4.2-302',
      'v1.4.2_302',
      '1.4.2_302',
      'v1.4.2',
      '1.4.2',
      'build-302',
      'build/302',
    ]);
  });

  it('does not repeat a build that is the version, and has nothing to try without either', () => {
    expect(versionTagNames('7', '7')).toEqual(['v7', '7', 'build-7', 'build/7']);
    expect(versionTagNames(null, null)).toEqual([]);
    expect(versionTagNames(' ', '')).toEqual([]);
  });
});
