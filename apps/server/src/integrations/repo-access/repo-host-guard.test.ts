import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeHost, invalidHostRules, NO_HOST_RULES, type HostRules } from './host-rules.ts';
import { REPO_HOST_REFUSED, REPO_UNREACHABLE, type RepoTimeouts } from './repo-access-error.ts';
import { createRepoHostGuard, type Resolve } from './repo-host-guard.ts';
import { closedPort, startPlainTextServer, startSilentServer, type LoopbackServer } from './testing/net-servers.ts';

describe('host rules', () => {
  it.each([
    ['127.0.0.1'],
    ['127.8.9.10'],
    ['10.1.2.3'],
    ['172.16.0.1'],
    ['192.168.1.1'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['0.0.0.0'],
    ['::1'],
    ['::'],
    ['fe80::1'],
    ['fc00::1'],
    ['fd12:3456::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:10.0.0.1'],
    ['64:ff9b::a00:1'],
    ['2002:a00:1::1'],
    ['ff02::1'],
  ])('refuses %s unless allowed', (address) => {
    expect(judgeHost('repo.example', [address], NO_HOST_RULES)).toBe('refused');
    expect(judgeHost(address, [address], { allow: [address], deny: [] })).toBe('allowed');
  });

  it('takes public addresses, and judges every address a name has', () => {
    expect(judgeHost('git.example', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'], NO_HOST_RULES)).toBe(
      'allowed',
    );
    // One private address among public ones is enough to refuse (DNS answers in another order next time).
    expect(judgeHost('git.example', ['93.184.216.34', '10.0.0.5'], NO_HOST_RULES)).toBe('refused');
    expect(judgeHost('git.example', [], NO_HOST_RULES)).toBe('refused');
  });

  it('allows by name, wildcard or block; deny beats allow, by name or by address', () => {
    expect(judgeHost('gitlab.lan', ['10.0.0.5'], { allow: ['GitLab.lan'], deny: [] })).toBe('allowed');
    expect(judgeHost('svn.corp.example', ['10.0.0.6'], { allow: ['*.corp.example'], deny: [] })).toBe('allowed');
    expect(judgeHost('corp.example', ['10.0.0.6'], { allow: ['*.corp.example'], deny: [] })).toBe('refused');
    expect(judgeHost('gitlab.lan', ['10.0.0.5'], { allow: ['10.0.0.0/8'], deny: [] })).toBe('allowed');
    expect(judgeHost('gitlab.lan', ['::ffff:10.0.0.5'], { allow: ['10.0.0.0/8'], deny: [] })).toBe('allowed');
    expect(judgeHost('gitlab.lan', ['10.0.0.5'], { allow: ['10.0.0.0/8'], deny: ['10.0.0.5'] })).toBe('refused');
    expect(judgeHost('gitlab.lan', ['10.0.0.5'], { allow: ['gitlab.lan'], deny: ['gitlab.lan'] })).toBe('refused');
    expect(judgeHost('github.com', ['140.82.112.3'], { allow: [], deny: ['*.com'] })).toBe('refused');
  });

  it('names the entries that are not hosts, addresses or blocks', () => {
    expect(
      invalidHostRules([
        'gitlab.lan',
        '*.corp.example',
        '10.0.0.0/8',
        'fd00::/8',
        '::1',
        'http://x',
        'a b',
        '10.0.0.0/99',
        '*',
      ]),
    ).toEqual(['http://x', 'a b', '10.0.0.0/99', '*']);
  });
});

describe('reaching a repository host', () => {
  const timeouts: RepoTimeouts = { connectMs: 300, idleMs: 300, commandMs: 5000 };
  const loopback: HostRules = { allow: ['127.0.0.1', 'localhost'], deny: [] };
  /** A resolver with a fixed table, failing like getaddrinfo for any other name. */
  const table: Resolve = async (host) => {
    const known: Record<string, string[]> = { 'git.example': ['127.0.0.1'], localhost: ['127.0.0.1'] };
    const found = known[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
  let silent: LoopbackServer;
  let plain: LoopbackServer;
  beforeAll(async () => {
    [silent, plain] = await Promise.all([startSilentServer(), startPlainTextServer()]);
  });
  afterAll(async () => {
    await Promise.all([silent?.close(), plain?.close()]);
  });
  const failure = async (url: string, rules = loopback) => {
    const guard = createRepoHostGuard({ rules: async () => rules, timeouts, resolve: table });
    return guard.reach(url).then(
      () => 'reached',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
  };

  it('says the same for a closed port, a silent one, an unknown host and a refused TLS handshake', async () => {
    const closed = await closedPort();
    const messages = await Promise.all([
      failure(`https://127.0.0.1:${closed}/a.git`),
      failure(`https://127.0.0.1:${silent.port}/a.git`),
      failure(`ssh://git@127.0.0.1:${silent.port}/a.git`),
      failure(`svn://127.0.0.1:${silent.port}/repo`),
      failure('https://no-such-host.example/a.git'),
      failure(`https://localhost:${plain.port}/a.git`),
    ]);
    expect(messages).toEqual(Array(6).fill(REPO_UNREACHABLE));
  });

  it('refuses private addresses, also behind a name, until allowed; answers the checked address to connect to', async () => {
    expect(await failure(`https://git.example:${plain.port}/a.git`, NO_HOST_RULES)).toBe(REPO_HOST_REFUSED);
    expect(await failure(`http://[::ffff:127.0.0.1]:${plain.port}/a.git`, NO_HOST_RULES)).toBe(REPO_HOST_REFUSED);
    const guard = createRepoHostGuard({
      rules: async () => ({ allow: ['git.example'], deny: [] }),
      timeouts,
      resolve: table,
    });
    expect(await guard.reach(`http://git.example:${plain.port}/a.git`)).toEqual({
      host: 'git.example',
      port: plain.port,
      address: '127.0.0.1',
    });
    expect(await guard.reach('file:///srv/git/a.git')).toBeNull();
    // On save only what the address says: a literal address, or a denied name.
    expect((await guard.checkWritten('https://10.0.0.5/a.git'))?.message).toBe(REPO_HOST_REFUSED);
    expect(await guard.checkWritten('https://git.example/a.git')).toBeNull();
    const denying = createRepoHostGuard({
      rules: async () => ({ allow: ['git.example'], deny: ['*.example'] }),
      timeouts,
      resolve: table,
    });
    expect((await denying.checkWritten('git@git.example:team/a.git'))?.message).toBe(REPO_HOST_REFUSED);
  });
});
