import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallPage, ShortChanges, VersionChanges, WorkflowRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const alice = { name: 'Alice', email: 'alice@studio.test' };
const t0 = Date.UTC(2026, 10, 20) / 1000;
const MINUTE = 60_000;
/** Two install pages' device ids (the page's device cookie). */
const RETURNING = 'returning-device-0001';
const FRESH = 'fresh-device-00000002';

/**
 * Issue 19 on the install page: a returning tester reads 自上次安装以来的变化 — the commits since the build of that
 * platform they last downloaded — and anyone else 本版本更新, the commits since the build before the offered one.
 */
describe.each(testDialects())('自上次安装以来的变化 on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let viewer: { userId: number; token: string };
  let appId: number;
  let code: WorkflowRow;
  const sandbox = createSandbox('release-install-changes-');
  let repo: GitRepo;
  const builds: number[] = [];

  const publish = async (n: number) => {
    server.clock.advance(MINUTE);
    const fileKey = await transferFile(
      server,
      admin,
      `app-${n}.apk`,
      sampleApk({ versionName: `1.${n}.0`, versionCode: n }),
    );
    const res = await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
      token: admin,
      body: { appId, s3Url: fileKey, commit: repo.head() },
    });
    expect(res.body.msg).toBe('success');
    builds.push(res.body.data.id);
    return res.body.data.id;
  };
  const sync = async () => {
    const res = await server.request<{ error: string | null }>('POST', `/api/workflow/sync?id=${code.id}`, {
      token: admin,
    });
    expect(res.body.data.error).toBeNull();
  };
  let time = t0;
  const commit = (message: string) => {
    time += 60;
    return repo.commit({ message, author: alice, time, files: { 'a.txt': message } });
  };
  /** A download as the install statistics store it (install_events: `d<device>` for a page, `u<id>` for a user). */
  const downloaded = async (versionId: number, who: { device?: string; userId?: number }) => {
    const now = server.clock.now();
    await server.db
      .insertInto('install_events')
      .values({
        app_id: appId,
        version_id: versionId,
        kind: 'download',
        day: new Date(now).toISOString().slice(0, 10),
        device_key: who.userId ? `u${who.userId}` : `d${who.device}`,
        user_id: who.userId ?? null,
        device_family: 'android',
        os_version: '14',
        create_time: now,
      })
      .execute();
  };
  /** What the install page says under the apk build it offers, to a device (and a signed-in user). */
  const offered = async (who: { device?: string; token?: string }): Promise<ShortChanges | null> => {
    const headers: Record<string, string> = {};
    if (who.device) {
      headers.cookie = `rs_device=${who.device}`;
      headers['x-install-device'] = who.device;
    }
    const page = await server.request<InstallPage>('GET', '/api/app_version?url=since&password=135790', {
      token: who.token,
      headers,
    });
    expect(page.status).toBe(200);
    expect(page.body.data.versions[0]?.id).toBe(builds.at(-1));
    return page.body.data.versions[0]?.changes ?? null;
  };

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('client'));
    commit('feat: 第一版');
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    viewer = await server.createUser({ username: 'tester', roleLevel: 20 });
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: {
          appName: '游戏',
          appType: 'unity',
          password: '135790',
          path: 'since',
          distributeUsers: [{ userId: viewer.userId, permit: 'view' }],
        },
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
    await sync();
    // Build 1, downloaded by a tester's page and by a signed-in tester; two commits, build 2; two more, build 3.
    await publish(1);
    await downloaded(builds[0] as number, { device: RETURNING });
    commit('feat: 新手引导');
    commit('fix: 登录崩溃');
    await sync();
    await publish(2);
    await downloaded(builds[1] as number, { userId: viewer.userId });
    commit('feat: 关卡编辑器');
    commit('fix: 切后台闪退');
    await sync();
    await publish(3);
    // Three publishes and four syncs of a real repository: a minute and more on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    sandbox.cleanup();
  });

  const entries = (...messages: string[]) => messages.map((message) => ({ message, author: 'Alice' }));

  it('shows a returning device the commits since the build it downloaded', async () => {
    expect(await offered({ device: RETURNING })).toEqual({
      since: '1.1.0 (1)',
      sinceInstalled: true,
      groups: [
        {
          tabName: '客户端',
          total: 4,
          entries: entries('fix: 切后台闪退', 'feat: 关卡编辑器', 'fix: 登录崩溃', 'feat: 新手引导'),
        },
      ],
    });
  });

  it('shows a new device 本版本更新: the commits since the build before', async () => {
    const expected = {
      since: '1.2.0 (2)',
      groups: [{ tabName: '客户端', total: 2, entries: entries('fix: 切后台闪退', 'feat: 关卡编辑器') }],
    };
    expect(await offered({ device: FRESH })).toEqual(expected);
    expect(await offered({})).toEqual(expected);
  });

  it('knows a signed-in tester by their downloads on any device', async () => {
    expect(await offered({ token: viewer.token, device: FRESH })).toEqual({
      since: '1.2.0 (2)',
      sinceInstalled: true,
      groups: [{ tabName: '客户端', total: 2, entries: entries('fix: 切后台闪退', 'feat: 关卡编辑器') }],
    });
  });

  it('answers /api/version_changes against the caller’s last install when asked (base=last_install)', async () => {
    const changes = async (token: string, query: string, device?: string) => {
      const res = await server.request<VersionChanges>('GET', `/api/version_changes?versionId=${builds[2]}${query}`, {
        token,
        headers: device ? { cookie: `rs_device=${device}` } : {},
      });
      expect(res.status).toBe(200);
      const { base, baseKind, lastInstall, workflows } = res.body.data;
      return { base: base?.id, baseKind, lastInstall: lastInstall?.id ?? null, total: workflows[0]?.total };
    };
    const [first, second] = builds;
    // The tester downloaded build 2: named by default, compared with on request.
    expect(await changes(viewer.token, '')).toEqual({
      base: second,
      baseKind: 'previous',
      lastInstall: second,
      total: 2,
    });
    expect(await changes(viewer.token, '&base=last_install')).toMatchObject({ base: second, baseKind: 'last_install' });
    // The admin took nothing: the previous build either way; with the returning page's cookie, build 1 and 4 commits.
    expect(await changes(admin, '&base=last_install')).toEqual({
      base: second,
      baseKind: 'previous',
      lastInstall: null,
      total: 2,
    });
    expect(await changes(admin, '&base=last_install', RETURNING)).toEqual({
      base: first,
      baseKind: 'last_install',
      lastInstall: first,
      total: 4,
    });
    // An explicit base wins.
    expect(await changes(admin, `&baseVersionId=${first}&base=last_install`)).toMatchObject({
      base: first,
      baseKind: 'chosen',
    });
  });

  it('shows 本版本更新 again once the tester has the build offered', async () => {
    await downloaded(builds[2] as number, { device: RETURNING });
    expect(await offered({ device: RETURNING })).toMatchObject({ since: '1.2.0 (2)', groups: [{ total: 2 }] });
    expect((await offered({ device: RETURNING }))?.sinceInstalled).toBeUndefined();
  });
});
