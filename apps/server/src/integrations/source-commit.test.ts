import { describe, expect, it } from 'vitest';
import { matchesCommitter, matchesFilter, shortBranchName, trimMessageEnd } from './source-commit.ts';

describe('branch names', () => {
  it('shortens refs/heads/ refs and leaves other refs as they are', () => {
    expect(shortBranchName('refs/heads/feature/x')).toBe('feature/x');
    expect(shortBranchName('refs/tags/v1')).toBe('refs/tags/v1');
  });
});

describe('filters', () => {
  it('matches committers by name or email, case-insensitively; empty means everybody', () => {
    expect(matchesCommitter([], 'anyone', null)).toBe(true);
    expect(matchesCommitter(['Ola@Corp.test'], 'Ola Berg', 'ola@corp.test')).toBe(true);
    expect(matchesCommitter(['ola berg'], 'Ola Berg', null)).toBe(true);
    expect(matchesCommitter(['米拉'], '米拉', null)).toBe(true);
    expect(matchesCommitter(['ola'], 'Ola Berg', 'ola@corp.test')).toBe(false);
    expect(matchesCommitter([''], '', null)).toBe(false);
  });

  it('keeps a commit without a branch only when no branch is asked for', () => {
    const commit = { branch: null, authorName: 'a', authorEmail: null };
    expect(matchesFilter({ branches: [], committers: [] }, commit)).toBe(true);
    expect(matchesFilter({ branches: ['main'], committers: [] }, commit)).toBe(false);
    expect(matchesFilter({ branches: ['main'], committers: [] }, { ...commit, branch: 'main' })).toBe(true);
  });

  it('removes only trailing line breaks from messages', () => {
    expect(trimMessageEnd('  title\n\nbody  \r\n\n')).toBe('  title\n\nbody  ');
  });
});
