import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem, WorkflowRow } from '@release/contract';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import {
  githubPingPayload,
  gitlabPushPayload,
  hmacHex,
  SHA,
} from '../src/integrations/webhooks/testing/webhook-payloads.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const alice = { name: 'Alice', email: 'alice@studio.test' };
const t0 = Date.UTC(2026, 10, 20) / 1000;

interface Answer {
  code: number;
  msg: string;
  data: { received: number; created: number; duplicate?: boolean };
}

/** The rules of a webhook delivery (issue 17: the inbound service), as a git host sees them. */
describe.each(testDialects())('webhook deliveries to a git workflow on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let flow: WorkflowRow;
  const sandbox = createSandbox('release-inbound-');
  let repo: GitRepo;

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('client'));
    repo.commit({ message: 'feat: 仓库里的第一个提交', author: alice, time: t0, files: { 'a.txt': '1' } });
    repo.commit({ message: 'feat: 仓库里的第二个提交', author: alice, time: t0 + 60, files: { 'b.txt': '1' } });
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    const appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'W', appType: 'unity', password: '135790', path: 'hooks' },
      })
    ).body.data.appId;
    const id = (
      await server.request<{ id: number }>('POST', '/api/workflow', {
        token: admin,
        body: {
          appId,
          contentType: 'default',
          tabName: '客户端',
          repoType: 'git',
          repoPath: repo.url,
          defaultBranch: 'main',
        },
      })
    ).body.data.id;
    flow = (
      await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })
    ).body.data.find((w) => w.id === id) as WorkflowRow;
  });
  afterAll(async () => {
    await server?.close();
    sandbox.cleanup();
  });

  const items = async () =>
    (
      await server.request<{ list: CommitLogItem[] }>(
        'GET',
        `/api/commit_log_list?workflowIds=${flow.id}&pageSize=200&onlyCliff=false`,
        { token: admin },
      )
    ).body.data.list;
  const send = (headers: Record<string, string>, body: string): Promise<Answer> =>
    fetch(flow.webhookUrl ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    }).then(async (r) => (await r.json()) as Answer);
  const gitlab = (payload: Record<string, unknown>, event = 'Push Hook', uuid: string = randomUUID()) =>
    send(
      { 'x-gitlab-event': event, 'x-gitlab-token': flow.webhookSecret ?? '', 'x-gitlab-event-uuid': uuid },
      JSON.stringify(gitlabPushPayload(payload)),
    );

  it('stores nothing from a branch outside the workflow branches, and the commits of its own branch', async () => {
    expect((await gitlab({ ref: 'refs/heads/release/2.4' })).data).toEqual({ received: 2, created: 0 });
    expect(await items()).toEqual([]);
    expect((await gitlab({ ref: 'refs/heads/main' })).data).toEqual({ received: 2, created: 2 });
    expect((await items()).map((i) => [i.commitId, i.branch])).toEqual([
      [SHA.second, 'main'],
      [SHA.first, 'main'],
    ]);
  });

  it('puts a pushed tag on the item of its commit, and the same delivery again changes nothing', async () => {
    const uuid = randomUUID();
    const tag = {
      ref: 'refs/tags/v2.4.0',
      checkout_sha: SHA.second,
      message: '2.4.0 正式版',
      commits: [],
      total_commits_count: 0,
    };
    expect((await gitlab(tag, 'Tag Push Hook', uuid)).data).toEqual({ received: 0, created: 0 });
    expect((await items()).find((i) => i.commitId === SHA.second)).toMatchObject({
      tagName: 'v2.4.0',
      tagSummary: ['2.4.0 正式版'],
    });

    // Another tag name under the same delivery id is a redelivery: the first stays.
    expect((await gitlab({ ...tag, ref: 'refs/tags/v9.9.9' }, 'Tag Push Hook', uuid)).data).toEqual({
      received: 0,
      created: 0,
      duplicate: true,
    });
    expect((await items()).find((i) => i.commitId === SHA.second)).toMatchObject({ tagName: 'v2.4.0' });
  });

  it('answers a ping without recording it', async () => {
    const ping = JSON.stringify(githubPingPayload());
    const headers = {
      'x-github-event': 'ping',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${hmacHex(flow.webhookSecret ?? '', ping)}`,
    };
    expect((await send(headers, ping)).data).toEqual({ received: 0, created: 0 });
    expect((await send(headers, ping)).data).toEqual({ received: 0, created: 0 });
  });

  it('reads the rest from the repository when the host cut its list short', async () => {
    const answer = await gitlab({ ref: 'refs/heads/main', commits: [], total_commits_count: 40 });
    expect(answer.data).toEqual({ received: 0, created: 0 });
    // The answer does not wait for the mirror: the repository's own commits show once its sync is done.
    await expect
      .poll(async () => (await items()).map((i) => i.commitMessage), { timeout: 15_000 })
      .toEqual(expect.arrayContaining(['feat: 仓库里的第一个提交', 'feat: 仓库里的第二个提交']));
  });

  it('refuses an unknown address and a delivery that is not from a git host, in Chinese', async () => {
    const unknown = await fetch(`${server.url}/api/workflow/webhook/${'x'.repeat(32)}`, {
      method: 'POST',
      body: '{}',
      headers: { 'x-gitlab-event': 'Push Hook' },
    });
    expect([unknown.status, ((await unknown.json()) as Answer).msg]).toEqual([404, 'Webhook 地址不存在']);
    const anonymous = await fetch(flow.webhookUrl ?? '', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect([anonymous.status, ((await anonymous.json()) as Answer).msg]).toEqual([
      400,
      '无法识别的 Webhook 来源（支持 GitLab、GitHub、Gitea）',
    ]);
  });
});
