import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem } from '@release/contract';
import { createSandbox, fastImportLinearHistory, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { walkedTipsFile } from '../src/modules/sync/walked-tips.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

/** More commits than one SQLite insert statement takes (250 rows), so a sync stores them over several. */
const COMMITS = 1_234;
const START = 1_700_000_000;

describe.each(testDialects())('a first sync of a long git history on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;
  const sandbox = createSandbox('release-sync-history-');
  let repo: GitRepo;

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('long'));
    fastImportLinearHistory(repo, 'main', COMMITS, START);
    repo.tag('v2.0.0', '2.0.0 正式版', { name: 'Release Bot', email: 'release@corp.test' }, START + COMMITS + 10);
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'L', appType: 'unity', password: '135790', path: 'long' },
      })
    ).body.data.appId;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    sandbox.cleanup();
  });

  const sync = async (id: number) =>
    (
      await server.request<{ created: number; error: string | null }>('POST', `/api/workflow/sync?id=${id}`, {
        token: admin,
      })
    ).body.data;
  /** Every item of the workflow, newest first, read page by page with the cursor as the web does. */
  const everyItem = async (id: number) => {
    const all: CommitLogItem[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/commit_log_list?workflowIds=${id}&pageSize=200&onlyCliff=false${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (
        await server.request<{ list: CommitLogItem[]; nextCursor: string | null }>('GET', query, { token: admin })
      ).body.data;
      all.push(...page.list);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  };

  it('stores every commit once, newest first, with its message, committer, files and tag; a full re-walk adds nothing', async () => {
    const body = {
      appId,
      contentType: 'default',
      tabName: '长历史',
      repoType: 'git',
      repoPath: repo.url,
      defaultBranch: '',
    };
    const id = (await server.request<{ id: number }>('POST', '/api/workflow', { token: admin, body })).body.data.id;
    expect(await sync(id)).toEqual({ created: COMMITS, error: null });

    const items = await everyItem(id);
    expect(items).toHaveLength(COMMITS);
    expect(new Set(items.map((item) => item.commitId)).size).toBe(COMMITS);
    // fastImportLinearHistory: commit i says `commit i`, at START + i, by 米拉 (odd) or Ola Berg (even), touching file-(i % 50).txt.
    items.forEach((item, index) => {
      const i = COMMITS - index;
      expect([item.commitMessage, item.commitTime, item.remark, item.branch]).toEqual([
        `commit ${i}\n\nbody of ${i}`,
        (START + i) * 1000,
        i % 2 === 0 ? 'Ola Berg' : '米拉',
        'main',
      ]);
      expect(item.hasMetadata).toBe(true);
    });
    expect(items[0]).toMatchObject({ tagName: 'v2.0.0', tagSummary: ['2.0.0 正式版'] });
    const [newest, oldest] = [items[0], items.at(-1)] as [CommitLogItem, CommitLogItem];
    const metadata = (
      await server.request<Record<string, string>>('POST', '/api/commit_log/metadata_list', {
        token: admin,
        body: { ids: [newest.id, oldest.id] },
      })
    ).body.data;
    expect(JSON.parse(metadata[String(oldest.id)] ?? 'null')).toEqual({
      files: { added: ['file-1.txt'], modified: [], removed: [] },
    });
    expect(JSON.parse(metadata[String(newest.id)] ?? 'null')).toEqual({
      files: { added: [], modified: [`file-${COMMITS % 50}.txt`], removed: [] },
    });

    // Another branch filter walks the whole history again (the kept tips are dropped): every commit is known.
    await server.request('POST', '/api/workflow/update', {
      token: admin,
      body: { ...body, id, defaultBranch: 'main' },
    });
    expect(await sync(id)).toEqual({ created: 0, error: null });
    expect(await everyItem(id)).toHaveLength(COMMITS);

    // A damaged state file beside the mirrors only costs a full walk: the next sync stores the new commit once.
    fs.writeFileSync(walkedTipsFile(server.built.core.config.mirrorsDir, id), '{"remote": "file:///tmp/x", "ti');
    repo.commit({
      message: 'fix: 状态文件损坏之后',
      author: { name: '米拉', email: 'mila@corp.test' },
      time: START + COMMITS + 20,
    });
    expect(await sync(id)).toEqual({ created: 1, error: null });
    expect((await everyItem(id)).map((item) => item.commitMessage).slice(0, 2)).toEqual([
      'fix: 状态文件损坏之后',
      `commit ${COMMITS}\n\nbody of ${COMMITS}`,
    ]);
    expect(await everyItem(id)).toHaveLength(COMMITS + 1);
  });
});
