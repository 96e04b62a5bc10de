import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncMirror } from './git-mirror.ts';
import { commitsBetween, resolveCommit } from './git-range.ts';
import { createSandbox, GitRepo, type Person } from './testing/git-fixture.ts';

const alice: Person = { name: 'Alice', email: 'alice@corp.test' };
const T = 1_714_600_000;
const sandbox = createSandbox('git-range-test-');
const mirror = sandbox.path('mirror.git');
const ids: Record<string, string> = {};

beforeAll(async () => {
  const repo = GitRepo.init(sandbox.path('src'));
  ids.base = repo.commit({ message: 'feat: 第一版', author: alice, time: T, files: { 'a.txt': '1' } });
  repo.checkout('feature', true);
  ids.f1 = repo.commit({ message: 'feat: 分支上的功能', author: alice, time: T + 10, files: { 'f.txt': '1' } });
  repo.checkout('main');
  ids.m1 = repo.commit({ message: 'fix: 主干上的修复', author: alice, time: T + 20, files: { 'a.txt': '2' } });
  ids.merge = repo.merge('feature', "Merge branch 'feature'", alice, T + 30);
  ids.m2 = repo.commit({ message: 'chore: 构建 1.1', author: alice, time: T + 40, files: { 'a.txt': '3' } });
  repo.checkout('hotfix', true);
  repo.git(['reset', '--hard', ids.base as string]);
  ids.h1 = repo.commit({ message: 'fix: 热修复', author: alice, time: T + 50, files: { 'h.txt': '1' } });
  await syncMirror(repo.url, mirror, { allowFile: true });
});
afterAll(() => sandbox.cleanup());

describe('git ranges between two builds', () => {
  it('resolves full and abbreviated ids, and nothing else unless names are allowed', async () => {
    expect(await resolveCommit(mirror, ids.m2 as string)).toBe(ids.m2);
    expect(await resolveCommit(mirror, (ids.m2 as string).slice(0, 9).toUpperCase())).toBe(ids.m2);
    expect(await resolveCommit(mirror, 'f'.repeat(40))).toBeNull();
    expect(await resolveCommit(mirror, 'main')).toBeNull();
    expect(await resolveCommit(mirror, 'main', { allowNames: true })).toBe(ids.m2);
    expect(await resolveCommit(mirror, '--output=/tmp/x', { allowNames: true })).toBeNull();
  });

  it('lists what a merge brought in, newest first, without the merge commit', async () => {
    const range = await commitsBetween(mirror, ids.base as string, ids.m2 as string, 10);
    expect(range.commits.map((c) => c.subject)).toEqual(['chore: 构建 1.1', 'fix: 主干上的修复', 'feat: 分支上的功能']);
    expect(range.commits[0]).toMatchObject({
      commitId: ids.m2,
      commitTime: (T + 40) * 1000,
      authorName: 'Alice',
      authorEmail: 'alice@corp.test',
    });
    expect([range.total, range.behind]).toEqual([3, 0]);
  });

  it('counts all but lists at most the limit', async () => {
    const range = await commitsBetween(mirror, ids.base as string, ids.m2 as string, 1);
    expect([range.commits.length, range.total]).toEqual([1, 3]);
  });

  it('tells a diverged history by the commits the newer build lacks', async () => {
    const range = await commitsBetween(mirror, ids.m2 as string, ids.h1 as string, 10);
    expect(range.commits.map((c) => c.subject)).toEqual(['fix: 热修复']);
    expect([range.total, range.behind]).toEqual([1, 3]);
  });

  it('answers nothing for the same state', async () => {
    expect(await commitsBetween(mirror, ids.m2 as string, ids.m2 as string, 10)).toEqual({
      commits: [],
      total: 0,
      behind: 0,
    });
  });
});
