import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { failureReason, GitError } from './git-command.ts';
import { syncMirror } from './git-mirror.ts';
import { classifyGitRemote, mirrorDirFor, redactRepoUrl, redactSecrets, restoreRepoSecret } from './remote-url.ts';
import { createSandbox, GitRepo } from './testing/git-fixture.ts';

const sandbox = createSandbox('git-remote-test-');
afterAll(() => sandbox.cleanup());

async function syncFailure(url: string, dir: string, allowFile?: boolean): Promise<GitError> {
  const error = await syncMirror(url, dir, allowFile === undefined ? {} : { allowFile }).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof GitError)) throw new Error(`expected a GitError, got ${String(error)}`);
  return error;
}

describe('classifyGitRemote', () => {
  it.each([
    ['https://git.corp.test/mobile/ios-app.git', 'https'],
    ['https://oauth2:glpat-secret@git.corp.test/mobile/ios-app.git', 'https'],
    ['https://[::1]:8443/repo.git', 'https'],
    ['http://gitlab.lan/mobile/ios-app.git', 'http'],
    ['ssh://git@git.corp.test:2222/mobile/ios-app.git', 'ssh'],
    ['git@git.corp.test:mobile/ios-app.git', 'scp'],
    ['org-123@github.com:acme/ios-app.git', 'scp'],
    ['file:///srv/git/app.git', 'file'],
  ])('accepts %s', (url, kind) => {
    expect(classifyGitRemote(url)).toBe(kind);
  });

  it.each([
    'git://git.corp.test/app.git',
    'ext::sh -c touch% /tmp/pwned',
    'ext::sh',
    'fd::17',
    '/srv/git/app.git',
    '../app.git',
    '-uhelp',
    'ssh://-oProxyCommand=touch%20x/app.git',
    'ssh://git@-oProxyCommand=x/app.git',
    '-oProxyCommand=x@host:repo',
    'git@-oProxyCommand=x:repo',
    'git@host:-repo',
    'host:repo.git',
    'https://git.corp.test/app.git\n--upload-pack=x',
    'https://git.corp.test/a b.git',
    'file://otherhost/srv/app.git',
    'ftp://host/app.git',
    '',
  ])('refuses %j', (url) => {
    expect(classifyGitRemote(url)).toBeNull();
  });

  it('refuses file:// when local remotes are not allowed', () => {
    expect(classifyGitRemote('file:///srv/git/app.git', { allowFile: false })).toBeNull();
  });
});

describe('remote helpers', () => {
  it('redacts tokens in URLs and messages', () => {
    expect(redactSecrets("fatal: unable to access 'https://oauth2:glpat-abc@git.corp.test/x.git/'")).toBe(
      "fatal: unable to access 'https://oauth2:***@git.corp.test/x.git/'",
    );
    expect(redactSecrets('git@host:repo.git')).toBe('git@host:repo.git');
    expect(redactSecrets("fatal: unable to access 'http://ghp_abc@gitlab.lan/x.git/'")).toBe(
      "fatal: unable to access 'http://***@gitlab.lan/x.git/'",
    );
  });

  it('hides the password or token of an address shown back, and keeps the stored one when saved back as shown', () => {
    expect(redactRepoUrl('https://oauth2:glpat-abc@git.corp.test/x.git')).toBe(
      'https://oauth2:***@git.corp.test/x.git',
    );
    expect(redactRepoUrl('http://ghp_token@gitlab.lan/x.git')).toBe('http://***@gitlab.lan/x.git');
    expect(redactRepoUrl('ssh://git@git.corp.test/x.git')).toBe('ssh://git@git.corp.test/x.git');
    expect(redactRepoUrl('git@git.corp.test:x.git')).toBe('git@git.corp.test:x.git');
    const stored = 'https://oauth2:glpat-abc@git.corp.test/x.git';
    expect(restoreRepoSecret('https://oauth2:***@git.corp.test/y.git', stored)).toBe(
      'https://oauth2:glpat-abc@git.corp.test/y.git',
    );
    expect(restoreRepoSecret('http://***@gitlab.lan/x.git', 'http://ghp_token@gitlab.lan/x.git')).toBe(
      'http://ghp_token@gitlab.lan/x.git',
    );
    // Another host, user or scheme: the stored secret is not sent anywhere else.
    expect(restoreRepoSecret('https://oauth2:***@evil.test/x.git', stored)).toBe('https://oauth2:***@evil.test/x.git');
    expect(restoreRepoSecret('https://other:***@git.corp.test/x.git', stored)).toBe(
      'https://other:***@git.corp.test/x.git',
    );
    expect(restoreRepoSecret('http://oauth2:***@git.corp.test/x.git', stored)).toBe(
      'http://oauth2:***@git.corp.test/x.git',
    );
    expect(restoreRepoSecret('https://oauth2:new@git.corp.test/x.git', stored)).toBe(
      'https://oauth2:new@git.corp.test/x.git',
    );
  });

  it('maps each remote to its own stable mirror directory', () => {
    const a = mirrorDirFor('/data/mirrors', 'https://git.corp.test/a.git');
    expect(a).toMatch(/^\/data\/mirrors\/[0-9a-f]{32}\.git$/);
    expect(mirrorDirFor('/data/mirrors', 'https://git.corp.test/a.git')).toBe(a);
    expect(mirrorDirFor('/data/mirrors', 'https://git.corp.test/b.git')).not.toBe(a);
  });
});

describe('syncMirror failures', () => {
  it('refuses a bad remote before running git', async () => {
    const error = await syncFailure('ext::sh -c touch% /tmp/pwned', sandbox.path('ext.git'));
    expect(error.reason).toBe('invalid_remote');
    expect(error.message).toContain('仓库地址不合法');
  });

  it('refuses file:// when the caller disallows it', async () => {
    const repo = GitRepo.init(sandbox.path('local'));
    repo.commit({ message: 'one', author: { name: 'A', email: 'a@x.test' }, time: 1_700_000_000 });
    expect((await syncFailure(repo.url, sandbox.path('local.git'), false)).reason).toBe('invalid_remote');
  });

  it('says a remote does not exist, with what to check, leaving no directory behind', async () => {
    const target = sandbox.path('missing/m.git');
    const error = await syncFailure(`file://${sandbox.path('no-such-repo')}`, target);
    expect(error.reason).toBe('remote_not_found');
    expect(error.message).toBe(
      '仓库不存在或无权访问：请检查仓库地址（私有仓库的 https 地址需带上有读取权限的访问令牌）',
    );
    expect(error.detail).toContain('no-such-repo');
    expect(readdirSync(sandbox.path('missing'))).toEqual([]);
  });

  it('says a host that does not answer cannot be reached', async () => {
    // Port 9 (discard) on loopback: nothing listens there, the connection is refused at once.
    const error = await syncFailure('https://127.0.0.1:9/team/app.git', sandbox.path('unreachable.git'));
    expect(error.reason).toBe('remote_unreachable');
    expect(error.message).toBe('无法连接仓库地址，请检查地址和网络');
  });

  it('tells a refused login from a missing repository by what git printed', () => {
    expect(
      failureReason("fatal: could not read Username for 'https://git.example.com': terminal prompts disabled"),
    ).toBe('remote_refused');
    expect(
      failureReason(
        'git@git.example.com: Permission denied (publickey).\nfatal: Could not read from remote repository.',
      ),
    ).toBe('remote_refused');
    expect(
      failureReason("remote: Repository not found.\nfatal: repository 'https://github.com/a/b.git/' not found"),
    ).toBe('remote_not_found');
    expect(failureReason('fatal: Could not resolve host: git.example.invalid')).toBe('remote_unreachable');
    expect(failureReason('fatal: bad object HEAD')).toBe('command_failed');
  });

  it('never touches a non-empty directory that is not a bare repository', async () => {
    const foreign = sandbox.path('foreign');
    mkdirSync(foreign);
    writeFileSync(`${foreign}/keep.txt`, 'mine');
    const repo = GitRepo.init(sandbox.path('src2'));
    repo.commit({ message: 'one', author: { name: 'A', email: 'a@x.test' }, time: 1_700_000_000 });
    expect((await syncFailure(repo.url, foreign)).reason).toBe('not_a_mirror');
  });
});
