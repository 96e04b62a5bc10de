import { describe, expect, it } from 'vitest';
import { branchNames, nextOrderNo, toStoredBranches } from './workflows.ts';

describe('workflow branches (SPEC §3) and order (SPEC §4)', () => {
  it('stores each comma-separated branch with refs/heads/ and reads back short names', () => {
    expect(toStoredBranches(' main , refs/heads/release/2.4,,main ')).toBe('refs/heads/main,refs/heads/release/2.4');
    expect(branchNames('refs/heads/main,refs/heads/release/2.4')).toEqual(['main', 'release/2.4']);
    expect(toStoredBranches('')).toBeNull();
    expect(branchNames(null)).toEqual([]);
  });
  it('gives a new tab the highest order plus one, or 0', () => {
    expect(nextOrderNo([])).toBe(0);
    expect(nextOrderNo([0, 3, 1])).toBe(4);
  });
});
