import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem, WorkflowRow } from '@release/contract';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { SvnRepo } from '../src/integrations/svn/testing/svn-fixture.ts';
import {
  giteaPushPayload,
  githubPushPayload,
  gitlabPushPayload,
  hmacHex,
} from '../src/integrations/webhooks/testing/webhook-payloads.ts';
import { createCommitLogsRepository } from '../src/modules/commit-logs/commit-logs.repository.ts';
import { createRepoSyncService } from '../src/modules/sync/repo-sync.service.ts';
import { createWorkflowsRepository } from '../src/modules/workflows/workflows.repository.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const alice = { name: 'Alice', email: 'alice@studio.test' };
const bob = { name: '王小明', email: 'bob@studio.test' };
const t0 = Date.UTC(2026, 10, 20) / 1000;

describe.each(testDialects())('update items from real repositories and webhooks on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;
  const sandbox = createSandbox('release-sync-');
  let repo: GitRepo;
  let tagged = '';

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('client'));
    repo.commit({ message: 'feat: 登录页', author: alice, time: t0, files: { 'a.txt': '1' } });
    repo.checkout('dev', true);
    repo.commit({ message: 'fix: 崩溃\n\n详细说明', author: bob, time: t0 + 60, files: { 'b.txt': '1' } });
    repo.checkout('main');
    tagged = repo.commit({ message: 'chore: 打包', author: alice, time: t0 + 120, files: { 'c.txt': '1' } });
    repo.tag('v1.4.2', '1.4.2 正式版', alice, t0 + 130);
    repo.commit({ message: 'feat: 不在主干外的提交', author: alice, time: t0 + 180, files: { 'd.txt': '1' } });
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'G', appType: 'unity', password: '135790', path: 'game' },
      })
    ).body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
    sandbox.cleanup();
  });

  const workflow = async (body: Record<string, unknown>) => {
    const id = (
      await server.request<{ id: number }>('POST', '/api/workflow', {
        token: admin,
        body: { appId, contentType: 'default', ...body },
      })
    ).body.data.id;
    const rows = (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })).body
      .data;
    return rows.find((w) => w.id === id) as WorkflowRow;
  };
  const items = async (id: number) =>
    (
      await server.request<{ list: CommitLogItem[] }>(
        'GET',
        `/api/commit_log_list?workflowIds=${id}&pageSize=200&onlyCliff=false`,
        { token: admin },
      )
    ).body.data.list;

  it('polls a git repository on the chosen branches with tags, and a second poll adds nothing', async () => {
    const flow = await workflow({
      tabName: '客户端',
      repoType: 'git',
      repoPath: repo.url,
      defaultBranch: 'main',
      committers: ['Alice'],
    });
    const first = await server.request<{ created: number; error: string | null }>(
      'POST',
      `/api/workflow/sync?id=${flow.id}`,
      { token: admin },
    );
    expect(first.body.data).toEqual({ created: 3, error: null });
    const list = await items(flow.id);
    expect(list.map((i) => i.commitMessage)).toEqual(['feat: 不在主干外的提交', 'chore: 打包', 'feat: 登录页']);
    expect(list.find((i) => i.commitId === tagged)).toMatchObject({
      tagName: 'v1.4.2',
      tagSummary: ['1.4.2 正式版'],
      branch: 'main',
      remark: 'Alice',
    });
    expect(
      (await server.request<{ created: number }>('POST', `/api/workflow/sync?id=${flow.id}`, { token: admin })).body
        .data.created,
    ).toBe(0);

    repo.checkout('dev');
    repo.commit({ message: 'feat: dev 上的新功能', author: bob, time: t0 + 240 });
    const all = await workflow({ tabName: '全部分支', repoType: 'git', repoPath: repo.url, committers: ['Alice'] });
    await server.request('POST', `/api/workflow/sync?id=${all.id}`, { token: admin });
    const everything = await items(all.id);
    expect(everything).toHaveLength(5);
    // Outside the committer filter: stored, but hidden until "show filtered logs".
    expect(everything.filter((i) => i.filtered).map((i) => i.remark)).toEqual(['王小明', '王小明']);
    repo.checkout('main');
  });

  it('a changed committer filter hides and shows the items already stored, not only later ones', async () => {
    const team = GitRepo.init(sandbox.path('team'));
    team.commit({ message: 'feat: 首页', author: alice, time: t0, files: { 'a.txt': '1' } });
    team.checkout('topic', true);
    team.commit({ message: 'fix: 闪退', author: bob, time: t0 + 60, files: { 'b.txt': '1' } });
    team.checkout('main');
    team.merge('topic', "Merge branch 'topic'", alice, t0 + 120);
    const body = {
      appId,
      contentType: 'default',
      tabName: '团队',
      repoType: 'git',
      repoPath: team.url,
      defaultBranch: 'main',
      committers: [] as string[],
    };
    const flow = await workflow(body);
    await server.request('POST', `/api/workflow/sync?id=${flow.id}`, { token: admin });
    const shown = async () => (await items(flow.id)).map((i) => [i.commitMessage, i.filtered]);
    const visible = async () =>
      (
        await server.request<{ list: CommitLogItem[] }>('GET', `/api/commit_log_list?workflowIds=${flow.id}`, {
          token: admin,
        })
      ).body.data.list.map((i) => i.commitMessage);
    expect(await shown()).toEqual([
      ["Merge branch 'topic'", true],
      ['fix: 闪退', false],
      ['feat: 首页', false],
    ]);

    // By email, in another case: only 王小明's commit stays shown; Alice's is kept, hidden; the merge stays hidden.
    expect(
      (
        await server.request('POST', '/api/workflow/update', {
          token: admin,
          body: { ...body, id: flow.id, committers: ['BOB@studio.test'] },
        })
      ).body.msg,
    ).toBe('success');
    expect(await shown()).toEqual([
      ["Merge branch 'topic'", true],
      ['fix: 闪退', false],
      ['feat: 首页', true],
    ]);
    expect(await visible()).toEqual(['fix: 闪退']);

    // Cleared again: everybody's, merges still hidden.
    await server.request('POST', '/api/workflow/update', {
      token: admin,
      body: { ...body, id: flow.id, committers: [] },
    });
    expect(await visible()).toEqual(['fix: 闪退', 'feat: 首页']);
  });

  it('a committer filter changed while a sync stores items applies to what that sync stored after the change too', async () => {
    const team = GitRepo.init(sandbox.path('team-race'));
    team.commit({ message: 'feat: 首页', author: alice, time: t0, files: { 'a.txt': '1' } });
    team.commit({ message: 'fix: 闪退', author: bob, time: t0 + 60, files: { 'b.txt': '1' } });
    const body = {
      appId,
      contentType: 'default',
      tabName: '竞争',
      repoType: 'git',
      repoPath: team.url,
      defaultBranch: 'main',
      committers: [] as string[],
    };
    const flow = await workflow(body);
    // A sync whose store waits until the filter was saved: it read the workflow (no filter) before.
    let reached!: () => void;
    const storing = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const real = server.built.core.shared.ingest;
    const ingest = {
      ...real,
      ingestCommits: async (...args: Parameters<typeof real.ingestCommits>) => {
        reached();
        await gate;
        return real.ingestCommits(...args);
      },
    };
    const sync = createRepoSyncService({
      workflows: createWorkflowsRepository(server.db),
      logs: createCommitLogsRepository(server.db),
      ingest,
      policy: server.built.core.shared.policy,
      mirrorsDir: sandbox.path('race-mirrors'),
      clock: server.clock,
      allowFileRemotes: true,
    });
    const record = await server.built.core.shared.workflows.findById(flow.id);
    if (!record) throw new Error('workflow missing');
    const running = sync.syncOnce(record);
    await storing;
    await server.request('POST', '/api/workflow/update', {
      token: admin,
      body: { ...body, id: flow.id, committers: ['Alice'] },
    });
    release();
    expect(await running).toEqual({ created: 2, error: null });
    expect((await items(flow.id)).map((i) => [i.commitMessage, i.filtered])).toEqual([
      ['fix: 闪退', true],
      ['feat: 首页', false],
    ]);
  });

  it('says why a repository cannot be read, on the workflow', async () => {
    const broken = await workflow({ tabName: '坏的', repoType: 'git', repoPath: `${repo.url}-missing` });
    const res = await server.request<{ created: number; error: string | null }>(
      'POST',
      `/api/workflow/sync?id=${broken.id}`,
      { token: admin },
    );
    expect(res.body.data.created).toBe(0);
    expect(res.body.data.error).toBeTruthy();
    // An address git must never see is refused when the workflow is saved (it is never stored, never run).
    const refused = await server.request('POST', '/api/workflow', {
      token: admin,
      body: {
        appId,
        contentType: 'default',
        tabName: '危险',
        repoType: 'git',
        repoPath: 'ext::sh -c touch% /tmp/pwned',
      },
    });
    expect([refused.status, refused.body.msg]).toEqual([
      400,
      '仓库地址不合法：仅支持 https://、http://、ssh://、git@主机:路径 或 file:// 地址',
    ]);
  });

  it('polls an svn repository revision by revision', async () => {
    const svn = SvnRepo.create(sandbox.path('svnrepo'));
    svn.importFiles('carol', '初始导入', 'trunk', { 'art/hero.png': 'png' }, sandbox.path('import1'));
    svn.importFiles('dave', '新角色', 'trunk/chars', { 'mage.png': 'png' }, sandbox.path('import2'));
    const flow = await workflow({ tabName: '美术', repoType: 'svn', repoPath: svn.url });
    expect(
      (await server.request<{ created: number }>('POST', `/api/workflow/sync?id=${flow.id}`, { token: admin })).body
        .data.created,
    ).toBe(2);
    svn.importFiles('carol', '更新', 'trunk/more', { 'x.png': 'png' }, sandbox.path('import3'));
    expect(
      (await server.request<{ created: number }>('POST', `/api/workflow/sync?id=${flow.id}`, { token: admin })).body
        .data.created,
    ).toBe(1);
    expect((await items(flow.id)).map((i) => [i.commitId, i.remark, i.branch])).toEqual([
      ['r3', 'carol', 'trunk'],
      ['r2', 'dave', 'trunk'],
      ['r1', 'carol', 'trunk'],
    ]);
  });

  it('takes GitHub, GitLab and Gitea pushes signed with the workflow secret, once, and refuses forgeries', async () => {
    const flow = await workflow({
      tabName: '托管',
      repoType: 'git',
      repoPath: 'https://git.example.com/acme/app.git',
      defaultBranch: 'main',
    });
    const secret = flow.webhookSecret ?? '';
    const send = (headers: Record<string, string>, body: string) =>
      fetch(flow.webhookUrl ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { code: number; msg: string; data: { created: number } },
      }));

    const github = JSON.stringify(githubPushPayload());
    const githubHeaders = {
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${hmacHex(secret, github)}`,
    };
    const firstDelivery = await send(githubHeaders, github);
    expect(firstDelivery.body.msg).toBe('success');
    expect(firstDelivery.body.data.created).toBe(2);
    // The same delivery again, or the same commits from a poll later: nothing new.
    expect((await send(githubHeaders, github)).body.data.created).toBe(0);
    const forged = await send(
      {
        ...githubHeaders,
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': `sha256=${hmacHex('wrong', github)}`,
      },
      github,
    );
    expect(forged.status).toBe(401);

    const gitlab = JSON.stringify(gitlabPushPayload());
    expect(
      (
        await send(
          { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret, 'x-gitlab-event-uuid': randomUUID() },
          gitlab,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await send(
          { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'nope', 'x-gitlab-event-uuid': randomUUID() },
          gitlab,
        )
      ).status,
    ).toBe(401);
    const gitea = JSON.stringify(giteaPushPayload());
    expect(
      (
        await send(
          { 'x-gitea-event': 'push', 'x-gitea-delivery': randomUUID(), 'x-gitea-signature': hmacHex(secret, gitea) },
          gitea,
        )
      ).status,
    ).toBe(200);

    const list = await items(flow.id);
    expect(list.some((i) => i.commitMessage === '同步修复')).toBe(true);
    expect(new Set(list.map((i) => i.commitId)).size).toBe(list.length);
    expect(
      (
        await fetch(`${server.url}/api/workflow/webhook/unknown-token`, {
          method: 'POST',
          body: '{}',
          headers: { 'x-github-event': 'push' },
        })
      ).status,
    ).toBe(404);
  });

  it('after a force-push and a deleted branch, a poll stores only the rewritten commit, loses nothing, and later polls only what came after', async () => {
    const flow = await workflow({ tabName: '强推', repoType: 'git', repoPath: repo.url });
    const sync = async () =>
      (
        await server.request<{ created: number; error: string | null }>('POST', `/api/workflow/sync?id=${flow.id}`, {
          token: admin,
        })
      ).body.data;
    expect((await sync()).error).toBeNull();
    const before = (await items(flow.id)).map((i) => i.commitId);
    repo.checkout('main');
    repo.git(['reset', '--hard', 'HEAD~1']);
    const rewritten = repo.commit({ message: 'fix: 强推后的提交', author: alice, time: t0 + 300 });
    repo.git(['branch', '-D', 'dev']);
    expect(await sync()).toEqual({ created: 1, error: null });
    const after = (await items(flow.id)).map((i) => i.commitId);
    expect(after).toHaveLength(before.length + 1);
    expect(after).toEqual(expect.arrayContaining([...before, rewritten]));
    expect(await sync()).toEqual({ created: 0, error: null });
    const next = repo.commit({ message: 'feat: 之后的提交', author: alice, time: t0 + 360 });
    expect(await sync()).toEqual({ created: 1, error: null });
    expect((await items(flow.id)).map((i) => i.commitId)).toContain(next);
  });
});
