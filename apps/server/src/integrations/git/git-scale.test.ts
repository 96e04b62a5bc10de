import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitError } from './git-command.ts';
import { readNewCommits, syncMirror } from './git-mirror.ts';
import {
  createSandbox,
  everythingStored,
  fastImportLinearHistory,
  GitRepo,
  nothingStored,
} from './testing/git-fixture.ts';

const COUNT = 5000;
const START = 1_700_000_000;
const sandbox = createSandbox('git-scale-test-');
const mirror = sandbox.path('mirror.git');

beforeAll(async () => {
  const repo = GitRepo.init(sandbox.path('big'));
  fastImportLinearHistory(repo, 'main', COUNT, START);
  await syncMirror(repo.url, mirror);
}, 60_000);

afterAll(() => sandbox.cleanup());

describe('readNewCommits at scale', () => {
  it(`reads all ${COUNT} commits of one branch in one streamed walk, with files`, async () => {
    const result = await readNewCommits(mirror, { branches: ['main'], committers: [] }, nothingStored, {
      maxCommits: COUNT,
    });
    expect(result.truncated).toBe(false);
    expect(result.scanned).toBe(COUNT);
    expect(result.commits).toHaveLength(COUNT);
    expect(new Set(result.commits.map((commit) => commit.commitId)).size).toBe(COUNT);
    result.commits.forEach((commit, index) => {
      const i = index + 1;
      expect(commit.message).toBe(`commit ${i}\n\nbody of ${i}`);
      expect(commit.commitTime).toBe((START + i) * 1000);
      expect(commit.branch).toBe('main');
    });
    expect(result.commits[0]?.files).toEqual({ added: ['file-1.txt'], modified: [], removed: [] });
    expect(result.commits[COUNT - 1]?.files).toEqual({ added: [], modified: ['file-0.txt'], removed: [] });
    expect(result.commits[COUNT - 1]?.authorName).toBe('Ola Berg');
    expect(result.commits[COUNT - 2]?.authorName).toBe('米拉');
  });

  it('applies the committers filter and maxCommits while streaming', async () => {
    const mira = await readNewCommits(mirror, { branches: ['main'], committers: ['mira@corp.test'] }, nothingStored, {
      maxCommits: COUNT,
      withFiles: false,
    });
    expect(mira.commits).toHaveLength(COUNT / 2);
    const capped = await readNewCommits(mirror, { branches: ['main'], committers: [] }, nothingStored, {
      maxCommits: 100,
      withFiles: false,
    });
    expect(capped.truncated).toBe(true);
    expect(capped.commits.map((commit) => commit.message.split('\n')[0])).toEqual(
      Array.from({ length: 100 }, (_, index) => `commit ${COUNT - 99 + index}`),
    );
  });

  it('asks the store about the walked commits a thousand at a time, and stores only what it does not have', async () => {
    const asked: number[] = [];
    const stored = new Set<string>();
    const all = await readNewCommits(mirror, { branches: ['main'], committers: [] }, nothingStored, {
      maxCommits: COUNT,
      withFiles: false,
    });
    // Every third commit is stored already (a webhook brought them, say).
    for (const [index, commit] of all.commits.entries()) if (index % 3 === 0) stored.add(commit.commitId);
    const result = await readNewCommits(
      mirror,
      { branches: ['main'], committers: [] },
      async (ids) => {
        asked.push(ids.length);
        return new Set(ids.filter((id) => stored.has(id)));
      },
      { maxCommits: COUNT, withFiles: false },
    );
    // A question per pipe read of git's output would be a few dozen commits each, hundreds of round trips.
    expect(asked.length).toBeLessThanOrEqual(COUNT / 1000 + 1);
    expect(asked.reduce((sum, n) => sum + n, 0)).toBe(COUNT);
    expect(result.commits.map((commit) => commit.commitId)).toEqual(
      all.commits.filter((commit) => !stored.has(commit.commitId)).map((commit) => commit.commitId),
    );
  });

  it('skips a fully seen history, and walks nothing from known tips', async () => {
    const seenAll = await readNewCommits(mirror, { branches: ['main'], committers: [] }, everythingStored);
    expect(seenAll.commits).toEqual([]);
    expect(seenAll.scanned).toBe(COUNT);
    const fromTips = await readNewCommits(mirror, { branches: ['main'], committers: [] }, nothingStored, {
      knownTips: seenAll.tips,
    });
    expect(fromTips.commits).toEqual([]);
    expect(fromTips.scanned).toBe(0);
  });

  it('stops git and reports a timeout when a command outlives its limit', async () => {
    // One millisecond is shorter than starting a git process, so both limits always trip.
    const read = await readNewCommits(mirror, { branches: ['main'], committers: [] }, nothingStored, {
      timeoutMs: 1,
    }).catch((error: unknown) => error);
    expect(read instanceof GitError && read.reason).toBe('timeout');
    const sync = await syncMirror(`file://${sandbox.path('big')}`, mirror, { timeoutMs: 1 }).catch(
      (error: unknown) => error,
    );
    expect(sync instanceof GitError && sync.reason).toBe('timeout');
  });

  it('recovers from locks a crashed git left behind, keeping fresh ones', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['config.lock', 'packed-refs.lock', 'refs/heads/main.lock']) {
      writeFileSync(join(mirror, name), '');
      utimesSync(join(mirror, name), hourAgo, hourAgo);
    }
    writeFileSync(join(mirror, 'refs/heads/fresh.lock'), '');
    const sync = await syncMirror(`file://${sandbox.path('big')}`, mirror, { timeoutMs: 60_000 });
    expect(sync.updates).toEqual([]);
    expect(
      ['config.lock', 'packed-refs.lock', 'refs/heads/main.lock'].some((name) => existsSync(join(mirror, name))),
    ).toBe(false);
    expect(existsSync(join(mirror, 'refs/heads/fresh.lock'))).toBe(true);
  });
});
