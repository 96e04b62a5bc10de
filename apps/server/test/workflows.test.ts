import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode, WorkflowMessages, type CommitLogItem, type WorkflowRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

describe.each(testDialects())('workflows of an app on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let viewer: { userId: number; token: string };
  let appId: number;
  let otherAppId: number;
  const git = {
    tabName: '客户端',
    contentType: 'default',
    repoType: 'git',
    repoPath: 'https://git.example.com/game/client.git',
    defaultBranch: 'main, release/1.x',
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    viewer = await server.createUser({ username: 'viewer', roleLevel: 20 });
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: {
          appName: 'G',
          appType: 'unity',
          password: '135790',
          path: 'game',
          distributeUsers: [{ userId: viewer.userId, permit: 'view' }],
        },
      })
    ).body.data.appId;
    otherAppId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'H', appType: 'unity', password: '135790', path: 'hhhh' },
      })
    ).body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (token = admin) =>
    (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token })).body.data;

  it('creates tabs with the next order number and branches stored with refs/heads/', async () => {
    const first = await server.request<{ id: number }>('POST', '/api/workflow', {
      token: admin,
      body: { ...git, appId },
    });
    expect(first.body.code).toBe(200);
    await server.request('POST', '/api/workflow', {
      token: admin,
      body: {
        appId,
        tabName: '资源库',
        contentType: 'default',
        repoType: 'svn',
        repoPath: 'svn://svn.example.com/art/trunk',
      },
    });
    const tabs = await list();
    expect(tabs.map((t) => [t.tabName, t.orderNo])).toEqual([
      ['客户端', 0],
      ['资源库', 1],
    ]);
    expect(tabs[0]).toMatchObject({
      defaultBranch: 'refs/heads/main,refs/heads/release/1.x',
      repoType: 'git',
      autoPush: false,
      committers: [],
    });
    expect(tabs[0]?.webhookUrl).toMatch(new RegExp(`^${server.url}/api/workflow/webhook/[A-Za-z0-9_-]{32}$`));
    expect(tabs[0]?.webhookSecret).toBeTruthy();
  });

  it('shows viewers the tabs without the webhook secret, and lets only editors change them', async () => {
    const tabs = await list(viewer.token);
    expect(tabs[0]).toMatchObject({ tabName: '客户端', webhookUrl: null, webhookSecret: null });
    const refused = await server.request('POST', '/api/workflow', { token: viewer.token, body: { ...git, appId } });
    expect([refused.status, refused.body.code]).toEqual([403, ResultCode.noPermission]);
  });

  it('answers the workflow modal messages of the spec', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...git, tabName: '' }, WorkflowMessages.nameRequired],
      [{ ...git, contentType: undefined }, WorkflowMessages.categoryRequired],
      [{ ...git, repoType: undefined }, WorkflowMessages.repoTypeRequired],
      [{ ...git, repoPath: '' }, WorkflowMessages.repoPathRequired],
      [{ tabName: '包', contentType: 'package' }, WorkflowMessages.packageTypeRequired],
      [{ tabName: '文档', contentType: 'custom' }, WorkflowMessages.typeRequired],
      [
        { tabName: '文档', contentType: 'custom', manageType: 'wiki', enterpriseName: ' ' },
        WorkflowMessages.sourceRequired,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await server.request('POST', '/api/workflow', { token: admin, body: { ...body, appId } });
      expect([message, res.status, res.body.msg.endsWith(message)]).toEqual([message, 400, true]);
    }
    const other = await server.request('POST', '/api/workflow', {
      token: admin,
      body: { appId, tabName: '其他', contentType: 'default', repoType: 'other' },
    });
    expect(other.body.code).toBe(200);
    const custom = await server.request('POST', '/api/workflow', {
      token: admin,
      body: { appId, tabName: '其他来源', contentType: 'custom', manageType: 'other' },
    });
    expect(custom.body.code).toBe(200);
  });

  it('reorders with 1-based numbers, never across apps, and deletes', async () => {
    const tabs = await list();
    const reversed = [...tabs].reverse().map((t, i) => ({ id: t.id, orderNo: i + 1 }));
    expect(
      (await server.request('POST', '/api/workflow/update_order', { token: admin, body: reversed })).body.code,
    ).toBe(200);
    expect((await list()).map((t) => t.id)).toEqual(reversed.map((r) => r.id));
    const foreign = (
      await server.request<{ id: number }>('POST', '/api/workflow', {
        token: admin,
        body: { ...git, appId: otherAppId },
      })
    ).body.data.id;
    const mixed = await server.request('POST', '/api/workflow/update_order', {
      token: admin,
      body: [
        { id: foreign, orderNo: 1 },
        { id: reversed[0]?.id, orderNo: 2 },
      ],
    });
    expect(mixed.status).toBe(400);
    expect((await server.request('DELETE', `/api/workflow?id=${reversed[0]?.id}`, { token: admin })).body.code).toBe(
      200,
    );
    expect((await list()).length).toBe(tabs.length - 1);
  });

  it('a package workflow shows versions published before and after it was added', async () => {
    const publish = async (name: string, versionName: string) => {
      const key = await transferFile(server, admin, name, sampleApk({ versionName }));
      return (
        await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
          token: admin,
          body: { appId, s3Url: key, description: `发布 ${versionName}` },
        })
      ).body.data.id;
    };
    await publish('a.apk', '1.0.0');
    const workflowId = (
      await server.request<{ id: number }>('POST', '/api/workflow', {
        token: admin,
        body: { appId, tabName: '安装包', contentType: 'package', packageType: 'apk' },
      })
    ).body.data.id;
    await publish('b.apk', '1.1.0');
    const logs = await server.request<{ list: CommitLogItem[]; hasMore: boolean }>(
      'GET',
      `/api/commit_log_list?workflowIds=${workflowId}`,
      { token: viewer.token },
    );
    expect(logs.body.data.list.map((l) => l.commitMessage)).toEqual(['发布 1.1.0', '发布 1.0.0']);
    expect(logs.body.data.list[0]).toMatchObject({
      nativePackageType: 'android',
      uploadBy: 'admin',
      remark: 'admin',
      tabName: '安装包',
    });
    // Each item names its package as the package list does: version (build) and index number.
    expect(
      logs.body.data.list.map(
        (l) => l.packageVersion && [l.packageVersion.appVersion, l.packageVersion.build, l.packageVersion.indexNo],
      ),
    ).toEqual([
      ['1.1.0', '7', 2],
      ['1.0.0', '7', 1],
    ]);
    expect(logs.body.data.list[0]?.cdnUrl).toMatch(/\/api\/blob\/file\?/);
  });
});
