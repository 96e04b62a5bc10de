import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallPage, VersionChanges, WorkflowRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { gitTally } from '../src/integrations/git/git-command.ts';
import { mirrorDirFor } from '../src/integrations/git/remote-url.ts';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const alice = { name: 'Alice', email: 'alice@studio.test' };
const t0 = Date.UTC(2026, 10, 20) / 1000;
const MINUTE = 60_000;

/**
 * Issue 19: every build knows where it came from and what changed since the build before it — the commits between
 * the two source states by real ancestry (merges, a diverged branch), the documents of the time between them, and
 * the snapshots bound to it.
 */
describe.each(testDialects())('what changed between two builds on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;
  let code: WorkflowRow;
  let levels: WorkflowRow;
  const sandbox = createSandbox('release-changes-');
  let repo: GitRepo;
  const ids: Record<string, string> = {};
  const versions: Record<string, number> = {};
  let versionCode = 1;

  const publish = async (name: string, extra: { commit?: string; branch?: string } = {}) => {
    server.clock.advance(MINUTE);
    const fileKey = await transferFile(
      server,
      admin,
      `游戏 ${name}.apk`,
      sampleApk({ versionName: name, versionCode }),
    );
    versionCode += 1;
    const res = await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
      token: admin,
      body: { appId, s3Url: fileKey, ...extra },
    });
    expect(res.body.msg).toBe('success');
    versions[name] = res.body.data.id;
    return res.body.data.id;
  };
  const changes = async (versionId: number, query = '', token = admin) =>
    server.request<VersionChanges>('GET', `/api/version_changes?versionId=${versionId}${query}`, { token });
  /** 本版本更新 of the apk build the install page offers. */
  const offeredChanges = async () => {
    const page = await server.request<InstallPage>('GET', '/api/app_version?url=changes&password=135790');
    expect(page.status).toBe(200);
    return page.body.data.versions[0]?.changes ?? null;
  };
  const sync = async () => {
    const res = await server.request<{ error: string | null }>('POST', `/api/workflow/sync?id=${code.id}`, {
      token: admin,
    });
    expect(res.body.data.error).toBeNull();
  };
  const push = (items: unknown[]) =>
    fetch(levels.webhookUrl ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${levels.webhookSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('client'));
    ids.c1 = repo.commit({ message: 'feat: 第一版', author: alice, time: t0, files: { 'a.txt': '1' } });
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: '游戏', appType: 'unity', password: '135790', path: 'changes' },
      })
    ).body.data.appId;
    for (const body of [
      { tabName: '客户端', contentType: 'default', repoType: 'git', repoPath: repo.url, defaultBranch: 'main' },
      { tabName: '关卡', contentType: 'custom', manageType: 'JPS_GAME', enterpriseName: '星辰工作室' },
      { tabName: '安装包', contentType: 'package', packageType: 'apk' },
    ])
      await server.request('POST', '/api/workflow', { token: admin, body: { appId, ...body } });
    const flows = (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })).body
      .data;
    code = flows.find((w) => w.tabName === '客户端') as WorkflowRow;
    levels = flows.find((w) => w.tabName === '关卡') as WorkflowRow;
    await sync();
  });
  afterAll(async () => {
    await server?.close();
    sandbox.cleanup();
  });

  it('records the commit an upload names, and has no changes for the first build', async () => {
    const first = await publish('1.0.0', { commit: ids.c1 });
    const answer = (await changes(first)).body.data;
    expect(answer.base).toBeNull();
    expect(answer.sources).toEqual([
      { workflowId: code.id, tabName: '客户端', commitId: ids.c1, origin: 'upload', branch: null, resolved: true },
    ]);
    expect(answer.workflows).toEqual([]);
  });

  it('lists the commits since the previous build by ancestry, merged work included, once the sync brings them', async () => {
    repo.checkout('feature', true);
    ids.f1 = repo.commit({ message: 'feat: 新手引导\n\n细节', author: alice, time: t0 + 60, files: { 'f.txt': '1' } });
    repo.checkout('main');
    ids.c2 = repo.commit({ message: 'fix: 登录崩溃', author: alice, time: t0 + 120, files: { 'a.txt': '2' } });
    ids.merge = repo.merge('feature', "Merge branch 'feature'", alice, t0 + 180);
    ids.c3 = repo.commit({ message: 'chore: 构建 1.1', author: alice, time: t0 + 240, files: { 'a.txt': '3' } });
    // CI built it before the server polled: the abbreviated commit is not in the mirror yet.
    const second = await publish('1.1.0', { commit: (ids.c3 as string).slice(0, 10), branch: 'main' });
    expect((await changes(second)).body.data.sources).toEqual([
      expect.objectContaining({ commitId: (ids.c3 as string).slice(0, 10), resolved: false }),
    ]);
    // The install page before the sync has nothing to say yet (the commit is pending, no items in between) …
    expect(await offeredChanges()).toBeNull();
    await sync();
    // … and after it, the commits by ancestry: the resolved source shows at once.
    expect(await offeredChanges()).toEqual({
      since: '1.0.0 (1)',
      groups: [
        {
          tabName: '客户端',
          total: 3,
          entries: [
            { message: 'chore: 构建 1.1', author: 'Alice' },
            { message: 'fix: 登录崩溃', author: 'Alice' },
            { message: 'feat: 新手引导', author: 'Alice' },
          ],
        },
      ],
    });
    const answer = (await changes(second)).body.data;
    expect(answer.base?.id).toBe(versions['1.0.0']);
    expect(answer.sources).toEqual([
      { workflowId: code.id, tabName: '客户端', commitId: ids.c3, origin: 'upload', branch: 'main', resolved: true },
    ]);
    const client = answer.workflows.find((w) => w.workflowId === code.id);
    expect(client).toMatchObject({
      basis: 'commits',
      from: { commitId: ids.c1, origin: 'upload' },
      to: { commitId: ids.c3, origin: 'upload' },
      total: 3,
      behind: 0,
    });
    expect(client?.entries.map((e) => [e.message, e.itemId !== null])).toEqual([
      ['chore: 构建 1.1', true],
      ['fix: 登录崩溃', true],
      ['feat: 新手引导', true],
    ]);
  });

  it("runs git once for a build's changes on the install page; items that arrive later still show", async () => {
    await offeredChanges();
    const runs = gitTally.count();
    await offeredChanges();
    await offeredChanges();
    expect(gitTally.count()).toBe(runs);
    // A document pushed into the time between the two builds shows on the next load, still without git.
    const { version, base } = (await changes(versions['1.1.0'] as number)).body.data;
    const between = Math.round(((base?.createTime ?? 0) + version.createTime) / 2);
    expect((await push([{ id: 'lv-0', time: between, author: '策划', message: '序章关卡' }])).status).toBe(200);
    expect((await offeredChanges())?.groups.map((g) => [g.tabName, g.total, g.entries[0]?.message])).toEqual([
      ['客户端', 3, 'chore: 构建 1.1'],
      ['关卡', 1, '序章关卡'],
    ]);
    expect(gitTally.count()).toBe(runs);
  });

  it('shows the documents and assets pushed between the two builds, not those before or after', async () => {
    const before = server.clock.now();
    await push([
      { id: 'lv-1', time: before - 10 * MINUTE, author: '策划', message: '更早的关卡' },
      { id: 'lv-2', time: before + MINUTE / 2, author: '策划', message: '第二章关卡' },
    ]);
    const third = await publish('1.2.0', { branch: 'hotfix' });
    await push([{ id: 'lv-3', time: server.clock.now() + MINUTE, author: '策划', message: '之后的关卡' }]);
    const answer = (await changes(third)).body.data;
    const assets = answer.workflows.find((w) => w.workflowId === levels.id);
    expect(assets).toMatchObject({ basis: 'time', total: 1, from: null, to: null });
    expect(assets?.entries.map((e) => [e.message, e.author])).toEqual([['第二章关卡', '策划']]);
  });

  it('tells a build made from a diverged branch by what it lacks of the one before', async () => {
    repo.checkout('hotfix', true);
    repo.git(['reset', '--hard', ids.c1 as string]);
    ids.h1 = repo.commit({ message: 'fix: 紧急修复', author: alice, time: t0 + 300, files: { 'h.txt': '1' } });
    repo.checkout('main');
    await sync();
    // Published with only a branch: the branch's tip when it was published.
    const hotfix = await publish('1.0.1', { branch: 'hotfix' });
    const answer = (await changes(hotfix)).body.data;
    expect(answer.sources).toEqual([expect.objectContaining({ commitId: ids.h1, origin: 'branch', branch: 'hotfix' })]);
    // The build before it (1.2.0) named a branch the mirror did not have then: no source, compared by time.
    const against = (await changes(hotfix, `&baseVersionId=${versions['1.1.0']}`)).body.data;
    expect(against.workflows.find((w) => w.workflowId === code.id)).toMatchObject({ basis: 'commits', behind: 3 });
    expect(against.workflows.find((w) => w.workflowId === code.id)?.entries.map((e) => e.message)).toEqual([
      'fix: 紧急修复',
    ]);
  });

  it('finds the commit by a tag named after the version when the upload says nothing', async () => {
    repo.tag('v2.0.0', '发布 2.0.0', alice, t0 + 400, ids.c3);
    await sync();
    // A repository with many tags (CI tags every build): the publish looks up its few candidate names, not them all.
    const mirror = mirrorDirFor(server.built.core.config.mirrorsDir, repo.url);
    // Written straight into packed-refs (as a pack-refs of a CI-tagged mirror leaves them; unsorted: git sorts them).
    const packed = path.join(mirror, 'packed-refs');
    const known = fs.existsSync(packed) ? fs.readFileSync(packed, 'utf8').split('\n') : [];
    const many = Array.from({ length: 3000 }, (_, i) => `${ids.c1} refs/tags/nightly-${i}`);
    const records = [...known.filter((line) => line && !line.startsWith('#')), ...many];
    fs.writeFileSync(packed, `# pack-refs with: peeled \n${records.join('\n')}\n`);
    expect(
      execFileSync('git', ['--git-dir', mirror, 'tag', '--list', 'nightly-*']).toString().split('\n'),
    ).toHaveLength(3001);
    const [runs, read] = [gitTally.count('for-each-ref'), gitTally.outputChars];
    const tagged = await publish('2.0.0');
    expect(gitTally.count('for-each-ref')).toBe(runs);
    expect(gitTally.outputChars - read).toBeLessThan(2000);
    expect((await changes(tagged)).body.data.sources).toEqual([
      expect.objectContaining({ commitId: ids.c3, origin: 'tag', resolved: true }),
    ]);
  });

  it('lists the snapshots bound to the build', async () => {
    const item = (
      await server.request<{ list: Array<{ id: number; commitMessage: string }> }>(
        'GET',
        `/api/commit_log_list?workflowIds=${levels.id}`,
        { token: admin },
      )
    ).body.data.list.find((i) => i.commitMessage === '第二章关卡');
    await server.request('POST', '/api/app_version/bind_commit', {
      token: admin,
      body: { commitId: item?.id, appVersionIds: [versions['2.0.0']] },
    });
    const answer = (await changes(versions['2.0.0'] as number)).body.data;
    expect(answer.snapshots.map((s) => [s.tabName, s.message])).toEqual([['关卡', '第二章关卡']]);
  });

  it('answers 404 to those who may not see the app, and for a build of another app', async () => {
    const outsider = await server.createUser({ username: 'outsider', roleLevel: 30 });
    expect((await changes(versions['1.1.0'] as number, '', outsider.token)).status).toBe(404);
    // Refused before any work: a pair nobody asked for yet runs no git for the outsider, then does for the admin.
    const pair = [versions['1.0.1'] as number, `&baseVersionId=${versions['1.0.0']}`] as const;
    const runs = gitTally.count();
    expect((await changes(pair[0], pair[1], outsider.token)).status).toBe(404);
    expect(gitTally.count()).toBe(runs);
    expect((await changes(pair[0], pair[1])).status).toBe(200);
    expect(gitTally.count()).toBeGreaterThan(runs);
    expect((await changes(999_999)).status).toBe(404);
    const other = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: '别的', appType: 'unity', password: '135790', path: 'other' },
      })
    ).body.data.appId;
    const fileKey = await transferFile(server, admin, '别的.apk', sampleApk({ versionName: '9.0' }));
    const foreign = (
      await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
        token: admin,
        body: { appId: other, s3Url: fileKey },
      })
    ).body.data.id;
    expect((await changes(versions['1.1.0'] as number, `&baseVersionId=${foreign}`)).status).toBe(404);
  });
});
