import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../git/testing/git-fixture.ts';
import { SvnError } from './svn-command.ts';
import { readSvnLog, svnHead } from './svn-log.ts';
import { SvnRepo } from './testing/svn-fixture.ts';

const IMPORT_MESSAGE = '导入代码\n\n第二行 <x> & "y"';
const sandbox = createSandbox('svn-log-test-');
let repo: SvnRepo;

beforeAll(() => {
  repo = SvnRepo.create(sandbox.path('repo'));
  repo.mucc('carol', 'layout', ['mkdir', 'trunk', 'mkdir', 'branches', 'mkdir', 'tags']);
  repo.importFiles('鲍勃', IMPORT_MESSAGE, 'trunk/src', { 'a.txt': 'a\n', 'b.txt': 'b\n' }, sandbox.path('import'));
  repo.setDate(2, '2024-01-02T03:04:05.678901Z');
  repo.svn([
    'copy',
    '--username',
    'carol',
    '-m',
    'create branch',
    `${repo.url}/trunk`,
    `${repo.url}/branches/feature-1`,
  ]);
  const feature = repo.checkout('branches/feature-1', sandbox.path('wc-feature'));
  writeFileSync(join(feature, 'src', 'a.txt'), 'a changed on the branch\n');
  repo.commit(feature, 'carol', 'feature work\n');
  const trunk = repo.checkout('trunk', sandbox.path('wc-trunk'));
  writeFileSync(join(trunk, 'src', 'a.txt'), 'a fixed\n');
  repo.svn(['delete', '--quiet', join(trunk, 'src', 'b.txt')]);
  repo.commit(trunk, 'alice', 'trunk fix');
  repo.svn(['copy', '--username', 'carol', '-m', 'Release 1.0', `${repo.url}/trunk`, `${repo.url}/tags/v1.0`]);
  writeFileSync(sandbox.path('anon.txt'), 'anon\n');
  repo.mucc('carol', '', ['put', sandbox.path('anon.txt'), 'trunk/anon.txt']);
  repo.deleteAuthor(7);
});

afterAll(() => sandbox.cleanup());

describe('readSvnLog', () => {
  it('reads every revision as a SourceCommit, oldest first', async () => {
    const result = await readSvnLog(repo.url);
    expect(result.lastRevision).toBe(7);
    expect(result.hasMore).toBe(false);
    expect(result.commits.map((commit) => [commit.commitId, commit.branch, commit.authorName, commit.message])).toEqual(
      [
        ['r1', 'trunk', 'carol', 'layout'],
        ['r2', 'trunk', '鲍勃', IMPORT_MESSAGE],
        ['r3', 'feature-1', 'carol', 'create branch'],
        ['r4', 'feature-1', 'carol', 'feature work'],
        ['r5', 'trunk', 'alice', 'trunk fix'],
        ['r6', 'trunk', 'carol', 'Release 1.0'],
        ['r7', 'trunk', '', ''],
      ],
    );
    const [, imported, , featureWork, trunkFix, tag] = result.commits;
    expect(imported?.commitTime).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
    expect(imported?.files).toEqual({
      added: ['/trunk/src', '/trunk/src/a.txt', '/trunk/src/b.txt'],
      modified: [],
      removed: [],
    });
    expect(imported?.authorEmail).toBeNull();
    expect(featureWork?.files).toEqual({ added: [], modified: ['/branches/feature-1/src/a.txt'], removed: [] });
    expect(trunkFix?.files).toEqual({ added: [], modified: ['/trunk/src/a.txt'], removed: ['/trunk/src/b.txt'] });
    expect(tag?.tags).toEqual(['v1.0']);
    expect(tag?.tagSummary).toEqual(['Release 1.0']);
    expect(result.commits.every((commit) => commit.url === null && commit.commitTime > 0)).toBe(true);
  });

  it('pages with fromRevision and limit', async () => {
    const page = await readSvnLog(repo.url, { fromRevision: 3, limit: 2 });
    expect(page.commits.map((commit) => commit.commitId)).toEqual(['r3', 'r4']);
    expect(page.lastRevision).toBe(4);
    expect(page.hasMore).toBe(true);
    const next = await readSvnLog(repo.url, { fromRevision: 5, limit: 2 });
    expect(next.commits.map((commit) => commit.commitId)).toEqual(['r5', 'r6']);
  });

  it('returns nothing, not an error, past the youngest revision', async () => {
    expect(await readSvnLog(repo.url, { fromRevision: 8 })).toEqual({
      commits: [],
      lastRevision: null,
      hasMore: false,
    });
  });

  it('filters by branch and committer but still reports how far it read', async () => {
    const feature = await readSvnLog(repo.url, { filter: { branches: ['feature-1'], committers: [] } });
    expect(feature.commits.map((commit) => commit.commitId)).toEqual(['r3', 'r4']);
    expect(feature.lastRevision).toBe(7);
    const bob = await readSvnLog(repo.url, { filter: { branches: [], committers: ['鲍勃'] } });
    expect(bob.commits.map((commit) => commit.commitId)).toEqual(['r2']);
  });

  it('logs a branch URL through its copy history', async () => {
    const branch = await readSvnLog(`${repo.url}/branches/feature-1`, { fromRevision: 3 });
    expect(branch.commits.map((commit) => [commit.commitId, commit.branch])).toEqual([
      ['r3', 'feature-1'],
      ['r4', 'feature-1'],
    ]);
    expect(branch.lastRevision).toBe(4);
  });

  it('refuses URLs svn should never see, and reports svn failures with their codes', async () => {
    for (const url of ['-r', 'ext::sh', 'ftp://host/repo', `${repo.url}\n--config-dir=/tmp`]) {
      const error = await readSvnLog(url).catch((caught: unknown) => caught);
      expect(error instanceof SvnError && error.reason).toBe('invalid_url');
    }
    expect(
      await readSvnLog(repo.url, { allowFile: false }).catch(
        (caught: unknown) => caught instanceof SvnError && caught.reason,
      ),
    ).toBe('invalid_url');
    const missing = await readSvnLog(`${repo.url}/nonexistent`).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(SvnError);
    if (!(missing instanceof SvnError)) return;
    expect(missing.reason).toBe('command_failed');
    expect(missing.message).toBe('SVN 命令执行失败');
    expect(missing.codes.length).toBeGreaterThan(0);
  });
});

describe('svnHead', () => {
  it('reads the youngest revision and the last change of a path', async () => {
    const root = await svnHead(repo.url);
    expect(root.revision).toBe(7);
    expect(root.repositoryRoot).toBe(repo.url);
    expect(root.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const branch = await svnHead(`${repo.url}/branches/feature-1`);
    expect(branch.revision).toBe(7);
    expect(branch.lastChangedRevision).toBe(4);
  });

  it('fails with svn codes for a repository that is gone', async () => {
    const gone = SvnRepo.create(sandbox.path('gone'));
    rmSync(gone.dir, { recursive: true, force: true });
    const error = await svnHead(gone.url).catch((caught: unknown) => caught);
    expect(error instanceof SvnError && error.reason).toBe('command_failed');
    expect(error instanceof SvnError && error.codes.length > 0).toBe(true);
  });
});
