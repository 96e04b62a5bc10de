import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem } from '@release/contract';
import type { SourceCommit } from '../src/integrations/source-commit.ts';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

type Page = { list: CommitLogItem[]; hasMore: boolean; nextCursor: string | null };
const HOUR = 3600_000;
const base = Date.UTC(2026, 10, 20, 8);

function commit(i: number, overrides: Partial<SourceCommit> = {}): SourceCommit {
  return {
    commitId: `c${String(i).padStart(39, '0')}`,
    branch: i % 2 ? 'dev' : 'main',
    authorName: i % 3 ? 'alice' : 'bob',
    authorEmail: null,
    commitTime: base + i * HOUR,
    message: `feat: 第${i}个提交`,
    tags: [],
    tagSummary: [],
    url: null,
    files: { added: [`f${i}.ts`], modified: [], removed: [] },
    ...overrides,
  };
}

// The list semantics of update items; where they come from (git, svn, webhooks) is proved by the sync tests.
describe.each(testDialects())('update items of workflows on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let viewer: { userId: number; token: string };
  let appId: number;
  let gitId: number;
  let svnId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: {
          appName: '游戏',
          appType: 'unity',
          password: '135790',
          path: 'game',
          distributeUsers: [{ userId: viewer.userId, permit: 'view' }],
        },
      })
    ).body.data.appId;
    const create = async (body: Record<string, unknown>) =>
      (
        await server.request<{ id: number }>('POST', '/api/workflow', {
          token: admin,
          body: { appId, contentType: 'default', ...body },
        })
      ).body.data.id;
    gitId = await create({ tabName: '客户端', repoType: 'git', repoPath: 'https://git.example.com/c.git' });
    svnId = await create({ tabName: '美术', repoType: 'svn', repoPath: 'svn://svn.example.com/art' });
    const ingest = server.built.core.shared.ingest;
    const workflows = await server.built.core.shared.workflows.findByIds(
      (await server.db.selectFrom('workflows').select('id').execute()).map((w) => w.id),
    );
    const gitFlow = workflows.find((w) => w.id === gitId);
    const svnFlow = workflows.find((w) => w.id === svnId);
    if (!gitFlow || !svnFlow) throw new Error('workflows missing');
    expect(
      await ingest.ingestCommits(
        gitFlow,
        Array.from({ length: 45 }, (_, i) => commit(i)),
      ),
    ).toBe(45);
    // Reported again (a webhook after a poll): nothing is duplicated.
    expect(await ingest.ingestCommits(gitFlow, [commit(3), commit(4)])).toBe(0);
    await ingest.ingestCommits(gitFlow, [
      commit(100, { message: "Merge branch 'dev' into main", authorName: 'alice' }),
    ]);
    await ingest.ingestCommits(svnFlow, [
      commit(200, { commitId: 'r7', branch: 'trunk', authorName: 'carol', commitTime: base + 10.5 * HOUR }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (query: string, token = admin) =>
    (await server.request<Page>('GET', `/api/commit_log_list?${query}`, { token })).body;

  it('pages 30 at a time, newest first, and says when there is no more', async () => {
    const first = await list(`workflowIds=${gitId}`);
    expect(first.data.list).toHaveLength(30);
    expect(first.data.hasMore).toBe(true);
    expect(first.data.list[0]?.commitMessage).toBe('feat: 第44个提交');
    const second = await list(`workflowIds=${gitId}&pageNo=2`);
    expect(second.data.list).toHaveLength(15);
    expect(second.data.hasMore).toBe(false);
    expect(second.data.list.at(-1)?.commitId).toBe(commit(0).commitId);
  });

  it('walks the same pages with the keyset cursor', async () => {
    const first = await list(`workflowIds=${gitId}`);
    const second = await list(`workflowIds=${gitId}&cursor=${first.data.nextCursor}`);
    const byPage = await list(`workflowIds=${gitId}&pageNo=2`);
    expect(second.data.list.map((l) => l.id)).toEqual(byPage.data.list.map((l) => l.id));
    expect(second.data).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await list(`workflowIds=${gitId}&cursor=yesterday`)).code).toBe(400);
  });

  it('hides the merge commit unless filtered logs are asked for', async () => {
    const all = await list(`workflowIds=${gitId}&onlyCliff=false&pageSize=200`);
    expect(all.data.list).toHaveLength(46);
    expect(all.data.list.find((l) => l.commitMessage.startsWith('Merge'))?.filtered).toBe(true);
  });

  it('filters by branch, time range and committer, and merges workflows for the summary tab', async () => {
    const dev = await list(`workflowIds=${gitId}&branch=refs/heads/dev&pageSize=200`);
    expect(dev.data.list.every((l) => l.branch === 'dev')).toBe(true);
    expect(dev.data.list).toHaveLength(22);
    const window = await list(`workflowIds=${gitId}&startTime=${base + 10 * HOUR}&endTime=${base + 12 * HOUR}`);
    expect(window.data.list.map((l) => l.commitMessage)).toEqual(['feat: 第11个提交', 'feat: 第10个提交']);
    const bob = await list(`workflowIds=${gitId}&remark=bob&pageSize=200`);
    expect(bob.data.list.every((l) => l.remark === 'bob')).toBe(true);
    const summary = await list(
      `workflowIds=${gitId},${svnId}&startTime=${base + 10 * HOUR}&endTime=${base + 12 * HOUR}`,
    );
    expect(summary.data.list.map((l) => [l.tabName, l.commitId])).toEqual([
      ['客户端', commit(11).commitId],
      ['美术', 'r7'],
      ['客户端', commit(10).commitId],
    ]);
  });

  it('lets editors supplement an item with a description and media, dropping empty links', async () => {
    const item = (await list(`workflowIds=${gitId}&pageSize=1`)).data.list[0];
    const fileUrls = JSON.stringify(['https://cdn.example.com/a.png', '', '  ', 'https://cdn.example.com/b.mp4']);
    expect(
      (
        await server.request('POST', '/api/commit_log/update', {
          token: admin,
          body: { id: item?.id, description: '截图说明', fileUrls },
        })
      ).body.code,
    ).toBe(200);
    const detail = await server.request<{ description: string; fileUrls: string[] }>(
      'GET',
      `/api/commit_log/detail?commitId=${item?.commitId}&workflowId=${gitId}`,
      { token: viewer.token },
    );
    expect(detail.body.data).toMatchObject({
      description: '截图说明',
      fileUrls: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.mp4'],
    });
    expect(
      (
        await server.request('POST', '/api/commit_log/update', {
          token: admin,
          body: { id: item?.id, fileUrls: '[oops' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await server.request('POST', '/api/commit_log/update', {
          token: viewer.token,
          body: { id: item?.id, description: 'x' },
        })
      ).status,
    ).toBe(403);
    const meta = await server.request<Record<string, string>>('POST', '/api/commit_log/metadata_list', {
      token: viewer.token,
      body: { ids: [item?.id] },
    });
    expect(JSON.parse(meta.body.data[String(item?.id)] ?? '{}')).toEqual({
      files: { added: ['f44.ts'], modified: [], removed: [] },
    });
  });

  it('opens an item by the short id the list shows (7+ hex digits, any case), and says when a short id names several', async () => {
    const flow = await server.built.core.shared.workflows.findById(gitId);
    if (!flow) throw new Error('workflow missing');
    const [first, second] = ['abcdef01'.padEnd(40, '1'), 'abcdef02'.padEnd(40, '2')];
    await server.built.core.shared.ingest.ingestCommits(flow, [
      commit(300, { commitId: first, message: 'fix: 短号打开' }),
      commit(301, { commitId: second, message: 'feat: 另一个' }),
    ]);
    const detail = (id: string, token = viewer.token) =>
      server.request<{ commitId: string; commitMessage: string }>(
        'GET',
        `/api/commit_log/detail?commitId=${id}&workflowId=${gitId}`,
        { token },
      );
    for (const id of [first, first.toUpperCase(), 'abcdef01', 'ABCDEF01'.padEnd(12, '1')])
      expect((await detail(id)).body.data).toMatchObject({ commitId: first, commitMessage: 'fix: 短号打开' });
    const ambiguous = await detail('abcdef0');
    expect([ambiguous.status, ambiguous.body.msg]).toEqual([400, '提交号 abcdef0 对应多个提交，请输入更长的提交号']);
    // Shorter than 7, not hex, or another workflow's: not found.
    for (const id of ['abcdef', 'abcdefz1', 'r7']) expect((await detail(id)).status).toBe(404);
    expect(
      (
        await server.request('GET', `/api/commit_log/detail?commitId=abcdef01&workflowId=${svnId}`, {
          token: viewer.token,
        })
      ).status,
    ).toBe(404);
  });

  it('binds an item to package versions of the same app and shows them by type', async () => {
    const publish = async (name: string, bytes: Buffer, app = appId) =>
      (
        await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
          token: admin,
          body: { appId: app, s3Url: await transferFile(server, admin, name, bytes) },
        })
      ).body.data.id;
    const ipaId = await publish('g.ipa', sampleIpa());
    const apkId = await publish('g.apk', sampleApk());
    const item = (await list(`workflowIds=${gitId}&pageSize=1`)).data.list[0];
    expect(
      (
        await server.request('POST', '/api/app_version/bind_commit', {
          token: admin,
          body: { commitId: item?.id, appVersionIds: [ipaId, apkId] },
        })
      ).body.code,
    ).toBe(200);
    const bound = (await list(`workflowIds=${gitId}&pageSize=1`)).data.list[0]?.bindVersions;
    expect(bound?.ipa.map((v) => v.appVersionId)).toEqual([ipaId]);
    expect(bound?.apk.map((v) => [v.appVersionId, v.appVersion])).toEqual([[apkId, '2.0.1']]);
    const otherApp = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'X', appType: 'unity', password: '135790', path: 'xxxx' },
      })
    ).body.data.appId;
    const foreign = await publish('x.apk', sampleApk(), otherApp);
    expect(
      (
        await server.request('POST', '/api/app_version/bind_commit', {
          token: admin,
          body: { commitId: item?.id, appVersionIds: [foreign] },
        })
      ).status,
    ).toBe(400);
  });

  it('answers a user trend across the apps the viewer can see', async () => {
    const carol = await server.request<Page>('GET', '/api/user_commit_log_list?remark=carol', { token: viewer.token });
    expect(carol.body.data.list.map((l) => [l.appName, l.commitId])).toEqual([['游戏', 'r7']]);
    const outsider = await server.createUser({ username: 'outsider', roleLevel: 20 });
    expect(
      (await server.request<Page>('GET', '/api/user_commit_log_list?remark=carol', { token: outsider.token })).body.data
        .list,
    ).toEqual([]);
    expect(
      (await server.request('GET', `/api/commit_log_list?workflowIds=${gitId}`, { token: outsider.token })).status,
    ).toBe(404);
    const names = await server.request<string[]>('GET', '/api/workflow/users', { token: viewer.token });
    expect(names.body.data).toEqual(['alice', 'bob', 'carol']);
  });
});
