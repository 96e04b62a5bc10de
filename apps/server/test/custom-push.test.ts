import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem, WorkflowRow } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

describe.each(testDialects())('pushing update items to a custom workflow on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let workflow: WorkflowRow;
  const levelChange = {
    applications: [
      {
        applicationId: 7,
        name: '关卡编辑器',
        icon: null,
        changelogs: [{ id: 'l-1', elementType: 'level', gameplay: 'main', categoryName: '第一章', count: 3 }],
      },
    ],
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    const appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'G', appType: 'unity', password: '135790', path: 'game' },
      })
    ).body.data.appId;
    await server.request('POST', '/api/workflow', {
      token: admin,
      body: { appId, tabName: '关卡', contentType: 'custom', manageType: 'JPS_GAME', enterpriseName: '星辰工作室' },
    });
    workflow = (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })).body
      .data[0] as WorkflowRow;
  });
  afterAll(async () => {
    await server?.close();
  });

  const push = (body: unknown, secret = workflow.webhookSecret ?? '', url = workflow.webhookUrl ?? '') =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { code: number; msg: string; data: { received: number; created: number } },
    }));

  it('gives editors a push address and secret', () => {
    expect(workflow.webhookUrl).toMatch(new RegExp(`^${server.url}/api/workflow/push/`));
    expect(workflow.webhookSecret).toBeTruthy();
  });

  it('stores pushed items with their upload-log metadata, once', async () => {
    const items = [
      {
        id: 'jps-101',
        time: Date.UTC(2026, 10, 21, 9),
        author: '策划小李',
        message: '更新第一章关卡',
        metadata: levelChange,
      },
    ];
    expect((await push({ items })).body.data).toEqual({ received: 1, created: 1 });
    expect((await push({ items })).body.data).toEqual({ received: 1, created: 0 });
    const page = await server.request<{ list: CommitLogItem[] }>(
      'GET',
      `/api/commit_log_list?workflowIds=${workflow.id}`,
      { token: admin },
    );
    const item = page.body.data.list[0];
    expect(item).toMatchObject({ commitMessage: '更新第一章关卡', remark: '策划小李', hasMetadata: true });
    const meta = await server.request<Record<string, string>>('POST', '/api/commit_log/metadata_list', {
      token: admin,
      body: { ids: [item?.id] },
    });
    expect(JSON.parse(meta.body.data[String(item?.id)] ?? '{}')).toEqual(levelChange);
  });

  it('answers the before and after of a document edit for the wiki-difference modal', async () => {
    const edit = {
      event: 'drive.file.edit_v1',
      spaceName: '策划文档',
      objTitle: '第一章设计',
      url: 'https://example.feishu.cn/docx/abc',
      changeVisible: true,
      beforeContent: '敌人 3 个\n',
      afterContent: '敌人 5 个\n',
    };
    await push({
      items: [
        {
          id: 'doc-9',
          time: Date.UTC(2026, 10, 21, 10),
          author: '策划小李',
          message: '修改文档：第一章设计',
          metadata: edit,
        },
      ],
    });
    const page = await server.request<{ list: CommitLogItem[] }>(
      'GET',
      `/api/commit_log_list?workflowIds=${workflow.id}`,
      { token: admin },
    );
    const ids = page.body.data.list.map((i) => i.id);
    const diff = await server.request<Array<{ objTitle: string; beforeContent: string; afterContent: string }>>(
      'POST',
      '/api/commit_log/wiki_diff',
      { token: admin, body: { ids } },
    );
    // The level item has no document change and is left out.
    expect(diff.body.data).toEqual([
      {
        id: ids[0],
        objTitle: '第一章设计',
        url: edit.url,
        event: 'drive.file.edit_v1',
        beforeContent: '敌人 3 个\n',
        afterContent: '敌人 5 个\n',
      },
    ]);
  });

  it("answers metadata and document changes only of the asker's apps, for up to 500 ids at once", async () => {
    const page = await server.request<{ list: CommitLogItem[] }>(
      'GET',
      `/api/commit_log_list?workflowIds=${workflow.id}`,
      { token: admin },
    );
    const withMetadata = page.body.data.list.filter((i) => i.hasMetadata).map((i) => i.id);
    expect(withMetadata.length).toBe(2);
    // The items asked for among ids that name nothing: 500, the most one request may ask about.
    const ids = [...withMetadata, ...Array.from({ length: 498 }, (_, i) => 900_000 + i)];
    const member = await server.createUser({ username: 'member', roleLevel: 20 });
    const outsider = await server.createUser({ username: 'outsider', roleLevel: 20 });
    const otherApp = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'H', appType: 'unity', password: '135790', path: 'other' },
      })
    ).body.data.appId;
    for (const [user, appId] of [
      [member, workflow.appId],
      [outsider, otherApp],
    ] as const) {
      const bound = await server.request('POST', '/api/user/bind_app', {
        token: admin,
        body: { userId: user.userId, appIds: [appId], permit: 'view' },
      });
      expect(bound.status).toBe(200);
    }
    const ask = (token: string) =>
      Promise.all([
        server.request<Record<string, string>>('POST', '/api/commit_log/metadata_list', { token, body: { ids } }),
        server.request<Array<{ id: number }>>('POST', '/api/commit_log/wiki_diff', { token, body: { ids } }),
      ]);
    for (const token of [admin, member.token]) {
      const [metadata, diff] = await ask(token);
      expect(Object.keys(metadata.body.data).map(Number).sort()).toEqual([...withMetadata].sort());
      expect(diff.body.data.map((d) => d.id)).toEqual([withMetadata[0]]);
    }
    // Another app's member is told nothing of these items, as if they did not exist.
    const [metadata, diff] = await ask(outsider.token);
    expect([metadata.status, metadata.body.data, diff.status, diff.body.data]).toEqual([200, {}, 200, []]);
    const tooMany = await server.request('POST', '/api/commit_log/metadata_list', {
      token: admin,
      body: { ids: [...ids, 1] },
    });
    expect(tooMany.status).toBe(400);
  });

  it('keeps the first text when an id is pushed again with a new message', async () => {
    const time = Date.UTC(2026, 10, 21, 11);
    expect(
      (await push({ items: [{ id: 'jps-202', time, author: '策划小李', message: '第一版说明' }] })).body.data,
    ).toEqual({ received: 1, created: 1 });
    expect(
      (await push({ items: [{ id: 'jps-202', time, author: '策划小李', message: '改过的说明' }] })).body.data,
    ).toEqual({ received: 1, created: 0 });
    const page = await server.request<{ list: CommitLogItem[] }>(
      'GET',
      `/api/commit_log_list?workflowIds=${workflow.id}`,
      { token: admin },
    );
    expect(page.body.data.list.filter((i) => i.commitTime === time).map((i) => i.commitMessage)).toEqual([
      '第一版说明',
    ]);
  });

  it('refuses a time in seconds, naming the field and the unit, and stores nothing of the push', async () => {
    const seconds = Math.floor(Date.UTC(2026, 10, 21, 12) / 1000);
    const refused = await push({
      items: [
        { id: 'jps-ms', time: Date.UTC(2026, 10, 21, 12), author: 'a', message: '毫秒' },
        { id: 'jps-s', time: seconds, author: 'a', message: '秒' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('参数错误：items.1.time 应为毫秒时间戳（13 位数字）');
    const page = await server.request<{ list: CommitLogItem[] }>(
      'GET',
      `/api/commit_log_list?workflowIds=${workflow.id}&startTime=0`,
      { token: admin },
    );
    expect(page.body.data.list.map((i) => i.commitMessage)).not.toContain('毫秒');
    // 10^12 ms (2001-09-09) is the first time accepted.
    expect(
      (await push({ items: [{ id: 'jps-2001', time: 1_000_000_000_000, author: 'a', message: '2001' }] })).body.data,
    ).toEqual({ received: 1, created: 1 });
  });

  it('says in the API docs that time is in milliseconds and that a repeated id is not stored again', async () => {
    const docs = (await (await fetch(`${server.url}/api/docs/json`)).json()) as {
      paths: Record<
        string,
        {
          post?: {
            description?: string;
            requestBody?: {
              content: Record<
                string,
                {
                  schema: {
                    properties: { items: { items: { properties: Record<string, { description?: string }> } } };
                  };
                }
              >;
            };
          };
        }
      >;
    };
    const route = docs.paths['/api/workflow/push/{token}']?.post;
    // The operation is described in Chinese (issue 16.9); the field descriptions come from the contract.
    expect(route?.description).toContain('毫秒时间戳');
    expect(route?.description).toContain('同一 `id` 的新内容不会覆盖第一次的');
    const fields = route?.requestBody?.content['application/json']?.schema.properties.items.items.properties;
    expect(fields?.time?.description).toContain('milliseconds');
    expect(fields?.id?.description).toContain('`created`: 0');
  });

  it('refuses a wrong secret, an unknown address and a malformed item', async () => {
    const items = [{ id: 'x', time: Date.UTC(2026, 10, 21, 13), author: 'a', message: 'm' }];
    const wrong = await push({ items }, 'not-the-secret');
    expect(wrong.status).toBe(401);
    const unknown = await push({ items }, workflow.webhookSecret ?? '', `${server.url}/api/workflow/push/nope`);
    expect(unknown.body).toEqual(wrong.body);
    const bad = await push({
      items: [
        {
          id: 'y',
          time: Date.UTC(2026, 10, 21, 13),
          author: 'a',
          message: 'm',
          metadata: {
            applications: [{ applicationId: 1, name: 'n', changelogs: [{ id: 1, elementType: 'weapon', count: 1 }] }],
          },
        },
      ],
    });
    expect(bad.status).toBe(400);
    // An id is stored as x:<id> in 128 characters: 126 is the most a sender may use, on both databases.
    expect(
      (await push({ items: [{ id: 'i'.repeat(126), time: Date.UTC(2026, 10, 21), author: 'a', message: 'm' }] })).body
        .data,
    ).toEqual({ received: 1, created: 1 });
    expect(
      (await push({ items: [{ id: 'i'.repeat(127), time: Date.UTC(2026, 10, 21), author: 'a', message: 'm' }] }))
        .status,
    ).toBe(400);
    expect(bad.body.msg).toContain('items.0.metadata');
  });
});
