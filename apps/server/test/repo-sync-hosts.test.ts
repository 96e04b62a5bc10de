import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem, RepoHostRules, WorkflowRow } from '@release/contract';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { REPO_HOST_REFUSED, REPO_UNREACHABLE } from '../src/integrations/repo-access/repo-access-error.ts';
import {
  closedPort,
  startDumbGitServer,
  startPlainTextServer,
  startSilentServer,
  type LoopbackServer,
} from '../src/integrations/repo-access/testing/net-servers.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const alice = { name: 'Alice', email: 'alice@studio.test' };
const t0 = Date.UTC(2026, 10, 20) / 1000;
const AUTH_REFUSED = '仓库拒绝访问：请确认地址中的账号或访问令牌有读取权限（ssh 地址需要为服务器配置部署密钥）';

describe.each(testDialects())('repository hosts, unreachable addresses and the first sync on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;
  const sandbox = createSandbox('release-hosts-');
  let silent: LoopbackServer;
  let plain: LoopbackServer;
  let git: LoopbackServer;
  let locked: LoopbackServer;

  beforeAll(async () => {
    // Short limits: a silent port must fail within them (the defaults are 15 s, 60 s and 10 min).
    server = await startTestServer(dialect, { repoTimeouts: { connectMs: 500, idleMs: 1000, commandMs: 30_000 } });
    admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'H', appType: 'unity', password: '135790', path: 'hosts' },
      })
    ).body.data.appId;
    const work = GitRepo.init(sandbox.path('work'));
    work.commit({ message: 'feat: 第一版', author: alice, time: t0, files: { 'a.txt': '1' } });
    work.commit({ message: 'fix: 第二版', author: alice, time: t0 + 60, files: { 'b.txt': '1' } });
    // Served read-only over dumb HTTP, as a bare repository.
    const served = sandbox.path('served');
    work.git(['clone', '--bare', '--quiet', work.dir, `${served}/team/app.git`]);
    work.git([`--git-dir=${served}/team/app.git`, 'update-server-info']);
    [silent, plain, git, locked] = await Promise.all([
      startSilentServer(),
      startPlainTextServer(),
      startDumbGitServer(served),
      startDumbGitServer(served, { user: 'ci', password: 's3cret-token' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([silent?.close(), plain?.close(), git?.close(), locked?.close()]);
    await server?.close();
    sandbox.cleanup();
  });

  const save = (body: Record<string, unknown>, path = '/api/workflow') =>
    server.request<{ id: number }>('POST', path, {
      token: admin,
      body: { appId, contentType: 'default', repoType: 'git', ...body },
    });
  const tabs = async () =>
    (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })).body.data;
  const sync = async (id: number) =>
    (
      await server.request<{ created: number; error: string | null }>('POST', `/api/workflow/sync?id=${id}`, {
        token: admin,
      })
    ).body.data;
  const setHosts = (rules: RepoHostRules, token = admin) =>
    server.request<RepoHostRules>('POST', '/api/system_setting/repo_hosts', { token, body: rules });
  const items = async (id: number) =>
    (
      await server.request<{ list: CommitLogItem[] }>('GET', `/api/commit_log_list?workflowIds=${id}&onlyCliff=false`, {
        token: admin,
      })
    ).body.data.list;
  const savedJobs = async () =>
    (await server.db.selectFrom('jobs').select('id').where('kind', '=', 'repo-sync.saved').execute()).length;

  it('refuses private and loopback addresses until the admin allows them, names resolving to them when synced; deny beats allow', async () => {
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '169.254.169.254', '10.0.0.8']) {
      const refused = await save({ tabName: `内网 ${host}`, repoPath: `https://${host}:${git.port}/team/app.git` });
      expect([refused.status, refused.body.msg, refused.body.data]).toEqual([
        400,
        REPO_HOST_REFUSED,
        { field: 'repoPath' },
      ]);
    }
    expect(
      (await save({ tabName: 'svn 内网', repoType: 'svn', repoPath: `svn://127.0.0.1:${silent.port}/repo` })).body.msg,
    ).toBe(REPO_HOST_REFUSED);
    // A name is resolved when it is connected to: localhost is saved, and its sync is refused.
    const byName = await save({ tabName: '本机', repoPath: `http://localhost:${git.port}/team/app.git` });
    expect(byName.status).toBe(200);
    expect(await sync(byName.body.data.id)).toEqual({ created: 0, error: REPO_HOST_REFUSED });

    const bad = await setHosts({ allow: ['localhost', 'http://x'], deny: [] });
    expect([bad.status, bad.body.msg]).toEqual([400, expect.stringContaining('无法识别的主机：http://x')]);
    const editor = await server.createUser({ username: 'hosts-editor', roleLevel: 30 });
    expect((await setHosts({ allow: ['127.0.0.1'], deny: [] }, editor.token)).status).toBe(403);

    expect((await setHosts({ allow: ['LOCALHOST', '127.0.0.0/8'], deny: [] })).body.data).toEqual({
      allow: ['localhost', '127.0.0.0/8'],
      deny: [],
    });
    expect(
      (await server.request<RepoHostRules>('GET', '/api/system_setting/repo_hosts', { token: admin })).body.data,
    ).toEqual({ allow: ['localhost', '127.0.0.0/8'], deny: [] });
    // Allowed: an http:// address (a GitLab on a LAN) is cloned through the name, at the address that was checked.
    expect(await sync(byName.body.data.id)).toEqual({ created: 2, error: null });
    expect((await save({ tabName: '本机 IP', repoPath: `https://127.0.0.1:${git.port}/team/app.git` })).status).toBe(
      200,
    );

    await setHosts({ allow: ['localhost', '127.0.0.0/8'], deny: ['localhost'] });
    expect(await sync(byName.body.data.id)).toEqual({ created: 0, error: REPO_HOST_REFUSED });
    expect((await save({ tabName: '被禁止', repoPath: `http://localhost:${git.port}/team/app.git` })).body.msg).toBe(
      REPO_HOST_REFUSED,
    );
    await setHosts({ allow: ['localhost', '127.0.0.1'], deny: [] });
  });

  it('says the same for every address it cannot read, and a silent port fails within the limits', async () => {
    const closed = await closedPort();
    const addresses: Array<['git' | 'svn', string]> = [
      ['git', `https://127.0.0.1:${closed}/team/app.git`],
      ['git', `https://127.0.0.1:${silent.port}/team/app.git`],
      ['git', `http://127.0.0.1:${silent.port}/team/app.git`],
      ['git', `ssh://git@127.0.0.1:${silent.port}/team/app.git`],
      ['git', `https://localhost:${plain.port}/team/app.git`],
      ['git', `http://localhost:${plain.port}/team/app.git`],
      ['git', `http://localhost:${git.port}/team/missing.git`],
      ['svn', `svn://127.0.0.1:${silent.port}/repo`],
      ['svn', `http://127.0.0.1:${silent.port}/repo`],
      ['svn', `https://127.0.0.1:${closed}/repo`],
    ];
    const errors: Array<string | null> = [];
    for (const [index, [repoType, repoPath]] of addresses.entries()) {
      const saved = await save({ tabName: `连不上 ${index}`, repoType, repoPath });
      expect(saved.status).toBe(200);
      errors.push((await sync(saved.body.data.id)).error);
    }
    expect(errors).toEqual(addresses.map(() => REPO_UNREACHABLE));
    // A server that answered and asked for credentials is told apart; with them the history comes.
    const noToken = await save({ tabName: '要令牌', repoPath: `http://localhost:${locked.port}/team/app.git` });
    expect(await sync(noToken.body.data.id)).toEqual({ created: 0, error: AUTH_REFUSED });
    const withToken = await save({
      tabName: '带令牌',
      repoPath: `http://ci:s3cret-token@localhost:${locked.port}/team/app.git`,
    });
    expect(await sync(withToken.body.data.id)).toEqual({ created: 2, error: null });
  });

  it('syncs a repository workflow saved through the API without being asked, once per new address', async () => {
    const first = GitRepo.init(sandbox.path('first'));
    first.commit({ message: 'feat: 保存即同步', author: alice, time: t0, files: { 'a.txt': '1' } });
    const before = await savedJobs();
    const id = (await save({ tabName: '保存即同步', repoPath: first.url })).body.data.id;
    expect(await savedJobs()).toBe(before + 1);
    await server.built.core.jobs.runDue();
    expect((await items(id)).map((i) => i.commitMessage)).toEqual(['feat: 保存即同步']);
    expect((await tabs()).find((w) => w.id === id)?.lastSyncTime).not.toBeNull();

    // A rename syncs nothing; another address does, with its own history.
    expect((await save({ id, tabName: '改名了', repoPath: first.url }, '/api/workflow/update')).status).toBe(200);
    expect(await savedJobs()).toBe(before + 1);
    const second = GitRepo.init(sandbox.path('second'));
    second.commit({ message: 'feat: 新地址', author: alice, time: t0 + 60, files: { 'b.txt': '1' } });
    await save({ id, tabName: '改名了', repoPath: second.url }, '/api/workflow/update');
    expect(await savedJobs()).toBe(before + 2);
    expect((await tabs()).find((w) => w.id === id)?.lastSyncTime).toBeNull();
    await server.built.core.jobs.runDue();
    expect((await items(id)).map((i) => i.commitMessage)).toEqual(['feat: 新地址', 'feat: 保存即同步']);
    // A custom workflow has nothing to sync.
    await server.request('POST', '/api/workflow', {
      token: admin,
      body: { appId, tabName: '自定义', contentType: 'custom', manageType: 'JPS' },
    });
    expect(await savedJobs()).toBe(before + 2);
  });

  it('never shows the token of an address back, and keeps it when the address is saved back as shown', async () => {
    const address = `http://ci:s3cret-token@localhost:${locked.port}/team/app.git`;
    const id = (await save({ tabName: '令牌', repoPath: address })).body.data.id;
    const shown = `http://ci:***@localhost:${locked.port}/team/app.git`;
    const listed = await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin });
    expect(listed.body.data.find((w) => w.id === id)?.repoPath).toBe(shown);
    expect(JSON.stringify(listed.body)).not.toContain('s3cret-token');
    expect((await save({ id, tabName: '令牌（改名）', repoPath: shown }, '/api/workflow/update')).status).toBe(200);
    const stored = await server.db
      .selectFrom('workflows')
      .select('repo_path')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.repo_path).toBe(address);
    expect(await sync(id)).toEqual({ created: 2, error: null });
    const list = await server.request('GET', `/api/commit_log_list?workflowIds=${id}&onlyCliff=false`, {
      token: admin,
    });
    expect(JSON.stringify(list.body)).not.toContain('s3cret-token');
    expect(JSON.stringify(list.body)).toContain(shown);
  });
});
