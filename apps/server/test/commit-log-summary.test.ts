import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem } from '@release/contract';
import type { SourceCommit } from '../src/integrations/source-commit.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

type Page = { list: CommitLogItem[]; hasMore: boolean; nextCursor: string | null };
const base = Date.UTC(2026, 10, 22, 7, 10);

/** Commits of one scripted push: all in the same second, as git records them. */
function commit(i: number): SourceCommit {
  return {
    commitId: `${i}`.padStart(40, 'a'),
    branch: 'main',
    authorName: '小李',
    authorEmail: null,
    commitTime: base,
    message: `feat: 第 ${i} 个功能`,
    tags: [],
    tagSummary: [],
    url: null,
    files: null,
  };
}

// The 工作流汇总 tab lists each workflow's own items: a commit of a repository two tabs follow comes once per tab.
describe.each(testDialects())('the summary of two workflows on one repository on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let viewer: { userId: number; token: string };
  let ids: number[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    viewer = await server.createUser({ username: '测试小张', roleLevel: 20 });
    const body = {
      appName: '星际商城',
      appType: 'unity',
      password: '135790',
      path: 'shop',
      distributeUsers: [{ userId: viewer.userId, permit: 'view' }],
    };
    const appId = (await server.request<{ appId: number }>('POST', '/api/app', { token: admin, body })).body.data.appId;
    const create = async (tabName: string) =>
      (
        await server.request<{ id: number }>('POST', '/api/workflow', {
          token: admin,
          body: {
            appId,
            contentType: 'default',
            tabName,
            repoType: 'git',
            repoPath: 'https://git.example.com/shop.git',
          },
        })
      ).body.data.id;
    ids = [await create('客户端主干'), await create('服务端')];
    const rows = await server.built.core.shared.workflows.findByIds(
      (await server.db.selectFrom('workflows').select('id').execute()).map((w) => w.id),
    );
    for (const id of ids) {
      const workflow = rows.find((w) => w.id === id);
      if (!workflow) throw new Error('workflow missing');
      await server.built.core.shared.ingest.ingestCommits(workflow, [1, 2, 3].map(commit));
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (workflowIds: string, token = admin) =>
    (await server.request<Page>('GET', `/api/commit_log_list?workflowIds=${workflowIds}`, { token })).body.data.list;

  it('shows every commit once per workflow, with the remark written on either tab', async () => {
    const client = await list(String(ids[0]));
    const server2 = await list(String(ids[1]));
    const remark = async (item: CommitLogItem | undefined, text: string) =>
      expect(
        (
          await server.request('POST', '/api/commit_log/update', {
            token: admin,
            body: { id: item?.id, description: text, fileUrls: '[]' },
          })
        ).body.code,
      ).toBe(200);
    await remark(client[0], '客户端已验证');
    await remark(server2[1], '服务端待部署');
    const summary = await list(ids.join(','), viewer.token);
    expect(summary).toHaveLength(6);
    const byTab = (tab: string) =>
      summary.filter((l) => l.tabName === tab).map((l) => [l.commitMessage, l.description]);
    expect(byTab('客户端主干')).toEqual([
      ['feat: 第 3 个功能', '客户端已验证'],
      ['feat: 第 2 个功能', ''],
      ['feat: 第 1 个功能', ''],
    ]);
    expect(byTab('服务端')).toEqual([
      ['feat: 第 3 个功能', ''],
      ['feat: 第 2 个功能', '服务端待部署'],
      ['feat: 第 1 个功能', ''],
    ]);
    // Page by page (cursor) the same six, none twice, none lost.
    const first = await server.request<Page>('GET', `/api/commit_log_list?workflowIds=${ids.join(',')}&pageSize=4`, {
      token: viewer.token,
    });
    const second = await server.request<Page>(
      'GET',
      `/api/commit_log_list?workflowIds=${ids.join(',')}&pageSize=4&cursor=${first.body.data.nextCursor}`,
      { token: viewer.token },
    );
    expect([...first.body.data.list, ...second.body.data.list].map((l) => l.id)).toEqual(summary.map((l) => l.id));
  });
});
