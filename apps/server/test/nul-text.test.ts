import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitLogItem, WorkflowRow } from '@release/contract';
import { githubPushPayload, hmacHex } from '../src/integrations/webhooks/testing/webhook-payloads.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

/** A NUL character (U+0000): PostgreSQL cannot keep it in text, SQLite can; both databases must answer alike. */
const NUL = '\u0000';

describe.each(testDialects())('text holding a NUL character on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'N', appType: 'unity', password: '135790', path: 'nul' },
      })
    ).body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
  });

  const workflow = async (body: Record<string, unknown>) => {
    const id = (
      await server.request<{ id: number }>('POST', '/api/workflow', { token: admin, body: { appId, ...body } })
    ).body.data.id;
    return (
      await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })
    ).body.data.find((w) => w.id === id) as WorkflowRow;
  };
  const items = async (id: number) =>
    (
      await server.request<{ list: CommitLogItem[] }>('GET', `/api/commit_log_list?workflowIds=${id}&onlyCliff=false`, {
        token: admin,
      })
    ).body.data.list;

  it('is refused in a JSON body, a query and a path with the field named, and nothing is stored', async () => {
    const body = await server.request('POST', '/api/workflow', {
      token: admin,
      body: { appId, contentType: 'custom', manageType: 'JPS_GAME', enterpriseName: '星辰', tabName: `关卡${NUL}` },
    });
    expect([body.status, body.body]).toEqual([
      400,
      { code: 400, msg: '参数错误：tabName 不能包含空字符（U+0000）', data: null },
    ]);
    expect(
      (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })).body.data,
    ).toEqual([]);

    const query = await server.request('GET', `/api/commit_log_list?remark=a%00b`, { token: admin });
    expect([query.status, query.body.msg]).toEqual([400, '参数错误：remark 不能包含空字符（U+0000）']);

    const custom = await workflow({
      contentType: 'custom',
      manageType: 'JPS_GAME',
      enterpriseName: '星辰',
      tabName: '关卡',
    });
    const push = await fetch(custom.webhookUrl ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${custom.webhookSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: 'jps-1', time: Date.UTC(2026, 10, 21), author: '策划', message: `更新${NUL}关卡` }],
      }),
    });
    expect([push.status, ((await push.json()) as { msg: string }).msg]).toEqual([
      400,
      '参数错误：items.0.message 不能包含空字符（U+0000）',
    ]);
    expect(await items(custom.id)).toEqual([]);

    // Nesting no body of ours has is refused before it is walked, on a route that needs no sign-in too.
    const deep = await server.request('POST', '/api/user/login', {
      rawBody: `${'['.repeat(4000)}${']'.repeat(4000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect([deep.status, deep.body.msg]).toEqual([400, '参数错误：body 嵌套层级过深']);
  });

  it('from a git host push is kept, the NUL shown as U+FFFD and a name longer than its column cut to it, instead of losing the push', async () => {
    const flow = await workflow({
      contentType: 'default',
      tabName: '托管',
      repoType: 'git',
      repoPath: 'https://git.example.com/acme/app.git',
      defaultBranch: 'main',
    });
    const payload = githubPushPayload() as { commits: Array<{ message: string; author: { name: string } }> };
    payload.commits[0]!.message = `Add device sync${NUL}`;
    payload.commits[1]!.author.name = `王${NUL}小明`;
    // Longer than the column (128): PostgreSQL refused the whole push, SQLite kept it; now both keep it cut.
    (payload.commits[0] as { author: { name: string } }).author.name = '长'.repeat(200);
    const raw = JSON.stringify(payload);
    const headers = {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${hmacHex(flow.webhookSecret ?? '', raw)}`,
    };
    const sent = await fetch(flow.webhookUrl ?? '', { method: 'POST', headers, body: raw });
    expect(((await sent.json()) as { data: { created: number } }).data.created).toBe(2);
    expect((await items(flow.id)).map((item) => [item.commitMessage, item.remark])).toEqual([
      ['同步修复', '王\uFFFD小明'],
      ['Add device sync\uFFFD', '长'.repeat(128)],
    ]);
  });
});
