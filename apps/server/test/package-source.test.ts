import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDetail, VersionChanges, WorkflowRow } from '@release/contract';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const alice = { name: 'Alice', email: 'alice@studio.test' };

/**
 * Issue 19: a package that carries the commit it was built from (Info.plist GitCommit, apk meta-data git.commit,
 * version.json commit) records it as the build's source — 安装包内记录 — unless the upload names one itself.
 */
describe.each(testDialects())('the source commit a package carries on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;
  let code: WorkflowRow;
  const sandbox = createSandbox('release-package-source-');
  let repo: GitRepo;
  let time = Date.UTC(2026, 10, 20) / 1000;
  const commit = (message: string) => {
    time += 60;
    return repo.commit({ message, author: alice, time, files: { 'a.txt': message } });
  };
  const publish = async (name: string, bytes: Buffer, extra: Record<string, unknown> = {}) => {
    server.clock.advance(60_000);
    const s3Url = await transferFile(server, admin, name, bytes);
    const res = await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
      token: admin,
      body: { appId, s3Url, ...extra },
    });
    expect(res.body.msg).toBe('success');
    return res.body.data.id;
  };
  const changes = async (versionId: number) =>
    (await server.request<VersionChanges>('GET', `/api/version_changes?versionId=${versionId}`, { token: admin })).body
      .data;
  const source = (commitId: string, origin: string) => ({
    workflowId: code.id,
    tabName: '客户端',
    commitId,
    origin,
    branch: null,
    resolved: true,
  });

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('client'));
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: '游戏', appType: 'unity', password: '135790', path: 'carried' },
      })
    ).body.data.appId;
    await server.request('POST', '/api/workflow', {
      token: admin,
      body: {
        appId,
        tabName: '客户端',
        contentType: 'default',
        repoType: 'git',
        repoPath: repo.url,
        defaultBranch: 'main',
      },
    });
    code = (
      await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })
    ).body.data.find((w) => w.tabName === '客户端') as WorkflowRow;
  });
  afterAll(async () => {
    await server?.close();
    sandbox.cleanup();
  });
  const sync = async () => {
    const res = await server.request<{ error: string | null }>('POST', `/api/workflow/sync?id=${code.id}`, {
      token: admin,
    });
    expect(res.body.data.error).toBeNull();
  };

  it('records the commit an apk, an ipa and a web zip carry, and lists the commits between two apks', async () => {
    const first = commit('feat: 第一版');
    await sync();
    const apk1 = await publish(
      'game-1.apk',
      sampleApk({ versionName: '1.0.0', versionCode: 1, metaData: { 'git.commit': first } }),
    );
    const ipa = await publish('game.ipa', sampleIpa({ info: { GitCommit: first.slice(0, 10) } }));
    const web = await publish(
      'game-web.zip',
      buildZip([
        { name: 'index.html', data: '<!doctype html><title>游戏</title>' },
        { name: 'version.json', data: JSON.stringify({ version: '1.0.0', commit: first }) },
      ]),
    );
    expect((await changes(apk1)).sources).toEqual([source(first, 'package')]);
    expect((await changes(ipa)).sources).toEqual([source(first, 'package')]);
    expect((await changes(web)).sources).toEqual([source(first, 'package')]);

    const fix = commit('fix: 登录崩溃');
    await sync();
    const apk2 = await publish(
      'game-2.apk',
      sampleApk({ versionName: '1.1.0', versionCode: 2, metaData: { 'git.commit': fix } }),
    );
    const answer = await changes(apk2);
    expect(answer.sources).toEqual([source(fix, 'package')]);
    expect(answer.workflows.map((w) => [w.basis, w.entries.map((e) => e.message)])).toEqual([
      ['commits', ['fix: 登录崩溃']],
    ]);
  });

  it('takes the commit the upload names over the one the package carries', async () => {
    const named = commit('chore: 构建');
    await sync();
    const apk = await publish(
      'game-3.apk',
      sampleApk({ versionName: '1.2.0', versionCode: 3, metaData: { 'git.commit': 'abcdef1234567' } }),
      { commit: named },
    );
    expect((await changes(apk)).sources).toEqual([source(named, 'upload')]);
  });

  it('reads the key the app’s settings name instead of the default ones', async () => {
    const saved = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: {
        appId,
        appName: '游戏',
        appType: 'unity',
        password: '135790',
        path: 'carried',
        sourceCommitKey: 'BuildSha',
      },
    });
    expect(saved.body.msg).toBe('success');
    const detail = await server.request<AppDetail>('GET', `/api/app?appId=${appId}`, { token: admin });
    expect(detail.body.data.sourceCommitKey).toBe('BuildSha');
    const own = commit('feat: 自定义字段');
    await sync();
    const other = commit('feat: 不该读到的');
    await sync();
    const ipa = await publish('game-2.ipa', sampleIpa({ build: '2', info: { BuildSha: own, GitCommit: other } }));
    expect((await changes(ipa)).sources).toEqual([source(own, 'package')]);
  });
});
