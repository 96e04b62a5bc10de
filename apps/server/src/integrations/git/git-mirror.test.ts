import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchFilter, SourceCommit } from '../source-commit.ts';
import { readNewCommits, syncMirror } from './git-mirror.ts';
import { createSandbox, GitRepo, nothingStored, storedIn, type Person } from './testing/git-fixture.ts';

const alice: Person = { name: 'Alice Wong', email: 'alice@corp.test' };
const bob: Person = { name: '鲍勃', email: 'Bob@Corp.test' };
const T = 1_714_600_000;
const FIX_MESSAGE = '修复：登录崩溃\n\n详细说明第一行\n第二行 with "quotes" & <tags>';

const sandbox = createSandbox('git-mirror-test-');
const mirror = sandbox.path('mirrors/app.git');
let repo: GitRepo;
const ids: Record<string, string> = {};
const stored = new Map<string, SourceCommit>();
const both: BranchFilter = { branches: ['main', 'dev'], committers: [] };
const isStored = storedIn(stored);
const byId = (commits: SourceCommit[]): Map<string, SourceCommit> =>
  new Map(commits.map((commit) => [commit.commitId, commit]));

beforeAll(() => {
  repo = GitRepo.init(sandbox.path('src'));
  ids.c1 = repo.commit({ message: 'init', author: alice, time: T + 10, files: { 'a.txt': 'a\n' } });
  ids.c2 = repo.commit({ message: FIX_MESSAGE, author: bob, time: T + 20, files: { 'a.txt': 'a2\n', 'b.txt': 'b\n' } });
  repo.checkout('dev', true);
  ids.d1 = repo.commit({
    message: 'feat: dev work\n',
    author: alice,
    time: T + 30,
    files: { 'dev/新文件.txt': 'x\n' },
  });
  repo.checkout('main');
  ids.c3 = repo.commit({ message: 'main only', author: alice, time: T + 40, files: { 'b.txt': null } });
  ids.merge = repo.merge('dev', "Merge branch 'dev'", bob, T + 50);
  repo.tag('v1.0', '发布 1.0\n\n更新说明', alice, T + 55);
  repo.tag('light', null, alice, T + 56, ids.c2);
  repo.git(['-c', 'advice.nestedTag=false', 'tag', '-a', 'v1.0-signed-off', '-m', '复核通过', 'v1.0'], {
    GIT_COMMITTER_NAME: alice.name,
    GIT_COMMITTER_EMAIL: alice.email,
    GIT_COMMITTER_DATE: `${T + 57} +0800`,
  });
});

afterAll(() => sandbox.cleanup());

describe('syncMirror + readNewCommits over file://', () => {
  it('clones a mirror and reads every commit with branch, tags, files and exact messages', async () => {
    const sync = await syncMirror(repo.url, mirror);
    expect(sync.created).toBe(true);
    expect(sync.updates.map((update) => `${update.kind}:${update.name}:${update.change}`).sort()).toEqual([
      'branch:dev:created',
      'branch:main:created',
      'tag:light:created',
      'tag:v1.0-signed-off:created',
      'tag:v1.0:created',
    ]);

    const result = await readNewCommits(mirror, both, isStored);
    expect(result.truncated).toBe(false);
    expect(result.scanned).toBe(5);
    expect(result.commits.map((commit) => commit.commitId)).toEqual([ids.c1, ids.c2, ids.d1, ids.c3, ids.merge]);
    expect(result.commits.every((commit) => commit.branch === 'main')).toBe(true);
    const commits = byId(result.commits);
    expect(commits.get(ids.c2 ?? '')).toEqual({
      commitId: ids.c2,
      branch: 'main',
      authorName: '鲍勃',
      authorEmail: 'Bob@Corp.test',
      commitTime: (T + 20) * 1000,
      message: FIX_MESSAGE,
      tags: ['light'],
      tagSummary: [''],
      url: null,
      files: { added: ['b.txt'], modified: ['a.txt'], removed: [] },
    });
    expect(commits.get(ids.d1 ?? '')?.message).toBe('feat: dev work');
    expect(commits.get(ids.c3 ?? '')?.files).toEqual({ added: [], modified: [], removed: ['b.txt'] });
    const merge = commits.get(ids.merge ?? '');
    expect(merge?.tags).toEqual(['v1.0', 'v1.0-signed-off']);
    expect(merge?.tagSummary).toEqual(['发布 1.0\n\n更新说明', '复核通过']);
    expect(merge?.files).toEqual({ added: ['dev/新文件.txt'], modified: [], removed: [] });
    for (const commit of result.commits) stored.set(commit.commitId, commit);
  });

  it('attributes each commit to the first filtered branch that contains it', async () => {
    const devFirst = await readNewCommits(mirror, { branches: ['dev', 'main'], committers: [] }, nothingStored, {
      withFiles: false,
    });
    const branchOf = new Map(devFirst.commits.map((commit) => [commit.commitId, commit.branch]));
    expect([ids.c1, ids.c2, ids.d1].map((id) => branchOf.get(id ?? ''))).toEqual(['dev', 'dev', 'dev']);
    expect([ids.c3, ids.merge].map((id) => branchOf.get(id ?? ''))).toEqual(['main', 'main']);
    expect(devFirst.commits.every((commit) => commit.files === null)).toBe(true);

    const devOnly = await readNewCommits(mirror, { branches: ['dev', 'gone'], committers: [] }, nothingStored);
    expect(devOnly.commits.map((commit) => commit.commitId)).toEqual([ids.c1, ids.c2, ids.d1]);
    expect(devOnly.missingBranches).toEqual(['gone']);
  });

  it('without a branch filter walks every branch, the default branch first', async () => {
    const all = await readNewCommits(mirror, { branches: [], committers: [] }, nothingStored);
    expect(all.branches.map((branch) => branch.name)).toEqual(['main', 'dev']);
    expect(all.commits).toHaveLength(5);
    expect(all.commits.every((commit) => commit.branch === 'main')).toBe(true);
  });

  it('applies the committers filter on author name or email, case-insensitively', async () => {
    const byEmail = await readNewCommits(mirror, { branches: ['main'], committers: ['bob@corp.test'] }, nothingStored);
    expect(byEmail.commits.map((commit) => commit.commitId)).toEqual([ids.c2, ids.merge]);
    const byName = await readNewCommits(mirror, { branches: ['main'], committers: ['鲍勃', 'nobody'] }, nothingStored);
    expect(byName.commits.map((commit) => commit.commitId)).toEqual([ids.c2, ids.merge]);
  });

  it('reports nothing new when every commit is already stored, asking the store about each commit once', async () => {
    const asked: string[] = [];
    const again = await readNewCommits(mirror, both, async (commitIds) => {
      asked.push(...commitIds);
      return isStored(commitIds);
    });
    expect(again.commits).toEqual([]);
    expect(again.scanned).toBe(5);
    expect(asked.sort()).toEqual([...stored.keys()].sort());
  });

  it('a force-push yields only the rewritten commits; nothing is duplicated', async () => {
    const before = await readNewCommits(mirror, both, isStored);
    repo.checkout('dev');
    repo.git(['reset', '--quiet', '--hard', ids.c2 ?? '']);
    ids.d2 = repo.commit({
      message: 'rewritten dev\n\n多行\n说明',
      author: alice,
      time: T + 60,
      files: { 'dev/other.txt': 'y\n' },
    });
    repo.checkout('main');

    const sync = await syncMirror(repo.url, mirror);
    expect(sync.created).toBe(false);
    expect(sync.updates).toEqual([{ kind: 'branch', name: 'dev', oldId: ids.d1, newId: ids.d2, change: 'forced' }]);

    const result = await readNewCommits(mirror, both, isStored);
    expect(result.commits.map((commit) => [commit.commitId, commit.branch, commit.message])).toEqual([
      [ids.d2, 'dev', 'rewritten dev\n\n多行\n说明'],
    ]);
    const viaTips = await readNewCommits(mirror, both, nothingStored, { knownTips: before.tips });
    expect(viaTips.commits.map((commit) => commit.commitId)).toEqual([ids.d2]);
    expect(viaTips.scanned).toBe(1);
    for (const commit of result.commits) stored.set(commit.commitId, commit);
  });

  it('a deleted branch yields nothing new and reports the branch missing', async () => {
    repo.git(['branch', '--quiet', '-D', 'dev']);
    const sync = await syncMirror(repo.url, mirror);
    expect(sync.updates).toEqual([{ kind: 'branch', name: 'dev', oldId: ids.d2, newId: null, change: 'deleted' }]);
    const result = await readNewCommits(mirror, both, isStored);
    expect(result.commits).toEqual([]);
    expect(result.missingBranches).toEqual(['dev']);
    expect(stored.has(ids.d1 ?? '')).toBe(true);
  });

  it('caps a read at maxCommits, newest first, and continues with the older ones', async () => {
    ids.n1 = repo.commit({ message: 'n1', author: alice, time: T + 70 });
    ids.n2 = repo.commit({ message: 'n2', author: alice, time: T + 80 });
    ids.n3 = repo.commit({ message: 'n3', author: alice, time: T + 90 });
    repo.git(['tag', '-d', 'light']);
    const sync = await syncMirror(repo.url, mirror);
    expect(sync.updates.map((update) => `${update.kind}:${update.name}:${update.change}`)).toEqual([
      'branch:main:updated',
      'tag:light:deleted',
    ]);

    const first = await readNewCommits(mirror, both, isStored, { maxCommits: 2 });
    expect(first.truncated).toBe(true);
    expect(first.commits.map((commit) => commit.commitId)).toEqual([ids.n2, ids.n3]);
    for (const commit of first.commits) stored.set(commit.commitId, commit);
    const rest = await readNewCommits(mirror, both, isStored, { maxCommits: 2 });
    expect(rest.truncated).toBe(false);
    expect(rest.commits.map((commit) => commit.commitId)).toEqual([ids.n1]);
    expect(
      byId(await readNewCommits(mirror, both, nothingStored).then((r) => r.commits)).get(ids.c2 ?? '')?.tags,
    ).toEqual([]);
  });

  it('hands over batches complete with tags and files in one walk, and the same commits as a single read', async () => {
    const whole = await readNewCommits(mirror, both, nothingStored);
    const batches: SourceCommit[][] = [];
    const read = await readNewCommits(mirror, both, nothingStored, {
      batchSize: 2,
      onBatch: async (batch) => void batches.push(batch),
    });
    expect(batches.every((batch) => batch.length === 2)).toBe(true);
    expect(read.commits.length).toBe(whole.commits.length % 2);
    // Batches come newest first, each oldest first like `commits`: reversed, they are the single read's order.
    expect([...read.commits, ...batches.reverse().flat()]).toEqual(whole.commits);
    expect(whole.commits.some((commit) => commit.tags.length > 0 && commit.files !== null)).toBe(true);
  });

  it('hands over a smaller first batch when asked, then full ones, losing and repeating nothing', async () => {
    const whole = await readNewCommits(mirror, both, nothingStored);
    const batches: SourceCommit[][] = [];
    const read = await readNewCommits(mirror, both, nothingStored, {
      firstBatchSize: 1,
      batchSize: 2,
      onBatch: async (batch) => void batches.push(batch),
    });
    expect(batches.map((batch) => batch.length)).toEqual([1, ...Array<number>(batches.length - 1).fill(2)]);
    expect([...read.commits, ...batches.reverse().flat()]).toEqual(whole.commits);
  });

  it('hands over one batch at a time, in order, and fails the read when storing a batch failed', async () => {
    const order: string[] = [];
    let inFlight = 0;
    const slow = async (batch: SourceCommit[]) => {
      inFlight += 1;
      order.push(`start ${batch.length} ${inFlight}`);
      await new Promise<void>((resolve) => setImmediate(resolve));
      inFlight -= 1;
    };
    await readNewCommits(mirror, both, nothingStored, { batchSize: 2, onBatch: slow });
    expect(order.every((line) => line.endsWith(' 1'))).toBe(true);
    expect(inFlight).toBe(0);
    const failing = readNewCommits(mirror, both, nothingStored, {
      batchSize: 2,
      onBatch: () => Promise.reject(new Error('database is gone')),
    });
    await expect(failing).rejects.toThrow('database is gone');
  });

  it('counts handed-over batches against maxCommits', async () => {
    const batches: SourceCommit[][] = [];
    const read = await readNewCommits(mirror, both, nothingStored, {
      maxCommits: 3,
      batchSize: 2,
      onBatch: async (batch) => void batches.push(batch),
    });
    expect([batches.flat().length, read.commits.length, read.truncated]).toEqual([2, 1, true]);
  });
});

describe('a remote without commits yet', () => {
  it('mirrors an empty repository and picks up its first push', async () => {
    const empty = GitRepo.init(sandbox.path('empty-src'));
    const target = sandbox.path('mirrors/empty.git');
    expect(await syncMirror(empty.url, target)).toEqual({ created: true, updates: [] });
    expect((await readNewCommits(target, both, nothingStored)).commits).toEqual([]);
    const first = empty.commit({ message: '第一次提交', author: alice, time: T + 100 });
    expect((await syncMirror(empty.url, target)).updates).toEqual([
      { kind: 'branch', name: 'main', oldId: null, newId: first, change: 'created' },
    ]);
    const read = await readNewCommits(target, both, nothingStored);
    expect(read.commits.map((commit) => [commit.commitId, commit.branch, commit.message])).toEqual([
      [first, 'main', '第一次提交'],
    ]);
    expect(read.missingBranches).toEqual(['dev']);
  });
});
