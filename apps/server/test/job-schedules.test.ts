import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobScheduleMessages, type CommitLogItem, type JobScheduleRow } from '@release/contract';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { createScheduler } from '../src/jobs/scheduler.ts';
import { HOUSEKEEPING_INTERVAL_MS } from '../src/core.ts';
import type { DatabaseHandle } from '../src/db/database.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { RETENTION_INTERVAL_MS } from '../src/modules/retention/retention.module.ts';

const POLL_MS = 60_000;
const author = { name: 'Alice', email: 'alice@studio.test' };
const t0 = Date.UTC(2026, 10, 20) / 1000;

describe.each(testDialects())('scheduled work in the database on %s', (dialect) => {
  let server: TestServer;
  let other: DatabaseHandle;
  let admin: string;
  let viewer: string;
  const sandbox = createSandbox('release-schedules-');
  let repo: GitRepo;

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('client'));
    repo.commit({ message: 'feat: 第一个提交', author, time: t0, files: { 'a.txt': '1' } });
    server = await startTestServer(dialect, { pollIntervalMs: POLL_MS });
    other = await server.openAnotherConnection();
    admin = await server.adminToken();
    viewer = (await server.createUser({ username: 'viewer', roleLevel: 30 })).token;
  });
  afterAll(async () => {
    await other?.destroy();
    await server?.close();
    sandbox.cleanup();
  });

  const jobs = async (token = admin) => server.request<JobScheduleRow[]>('GET', '/api/system_setting/jobs', { token });
  const row = async (name: string) => (await jobs()).body.data.find((r) => r.name === name) as JobScheduleRow;
  const scheduler = () => server.built.core.scheduler;

  it('lists housekeeping, retention and the repository poll for admins only, the first run one interval away', async () => {
    const listed = await jobs();
    expect(listed.body.data.map((r) => [r.name, r.title, r.intervalMs])).toEqual([
      ['housekeeping', '定期清理', HOUSEKEEPING_INTERVAL_MS],
      ['retention', '版本保留清理', RETENTION_INTERVAL_MS],
      ['repository-poll', '仓库轮询', POLL_MS],
    ]);
    expect(listed.body.data.find((r) => r.name === 'repository-poll')).toMatchObject({
      enabled: true,
      running: false,
      lastRunAt: null,
      lastError: null,
      nextRunAt: server.clock.now() + POLL_MS,
    });
    const refused = await jobs(viewer);
    expect(refused.status).toBe(403);
    expect(
      (await server.request('POST', '/api/system_setting/jobs/run', { token: viewer, body: { name: 'housekeeping' } }))
        .status,
    ).toBe(403);
  });

  it('polls the repositories when the interval has passed, once, and books the next poll', async () => {
    const appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'S', appType: 'unity', password: '135790', path: 'sched' },
      })
    ).body.data.appId;
    const flow = (
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
    const items = async () =>
      (
        await server.request<{ list: CommitLogItem[] }>(
          'GET',
          `/api/commit_log_list?workflowIds=${flow}&pageSize=50&onlyCliff=false`,
          { token: admin },
        )
      ).body.data.list.map((i) => i.commitMessage);

    expect(await scheduler().runDue()).toBe(0);
    expect(await items()).toEqual([]);
    server.clock.advance(POLL_MS);
    const pollAt = server.clock.now();
    expect(await scheduler().runDue()).toBe(1);
    expect(await items()).toEqual(['feat: 第一个提交']);
    expect(await row('repository-poll')).toMatchObject({
      lastRunAt: pollAt,
      lastError: null,
      nextRunAt: pollAt + POLL_MS,
      running: false,
    });
    expect((await row('repository-poll')).lastDurationMs).toEqual(expect.any(Number));
    // Not due again until the next interval.
    repo.commit({ message: 'fix: 第二个提交', author, time: t0 + 60, files: { 'b.txt': '1' } });
    expect(await scheduler().runDue()).toBe(0);
    server.clock.advance(POLL_MS);
    expect(await scheduler().runDue()).toBe(1);
    expect(await items()).toEqual(['fix: 第二个提交', 'feat: 第一个提交']);
  });

  it('two processes due at the same moment: one of them runs the schedule', async () => {
    let runs = 0;
    const definition = { name: 'race-test', title: '并发测试', intervalMs: 1000, run: async () => void runs++ };
    const here = createScheduler({ db: server.db, clock: server.clock, owner: 'here' });
    const there = createScheduler({ db: other.db, clock: server.clock, owner: 'there' });
    here.define(definition);
    there.define(definition);
    await Promise.all([here.list(), there.list()]);
    for (let slot = 1; slot <= 5; slot++) {
      server.clock.advance(1000);
      const [a, b] = await Promise.all([here.runDue(), there.runDue()]);
      expect(a + b).toBe(1);
      expect(runs).toBe(slot);
    }
    const recorded = await here.repository.runs('race-test');
    expect(recorded).toHaveLength(5);
    expect(recorded.every((r) => r.finish_time !== null && r.error === null)).toBe(true);
  });

  it('run now starts one run; a second click while it runs is refused with the reason; the last error is kept', async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    const local = createScheduler({ db: server.db, clock: server.clock, owner: 'local' });
    local.define({
      name: 'slow-test',
      title: '慢任务',
      intervalMs: HOUSEKEEPING_INTERVAL_MS,
      run: async () => {
        calls++;
        await new Promise<void>((resolve) => (release = resolve));
        throw new Error('仓库地址无法访问');
      },
    });
    expect(await local.runNow('slow-test')).toBe(true);
    await expect.poll(() => calls).toBe(1);
    expect(await local.runNow('slow-test')).toBe(false);
    expect((await local.list())[0]).toMatchObject({ running: true });
    release();
    await local.idle();
    expect(calls).toBe(1);
    expect((await local.list())[0]?.record).toMatchObject({
      last_error: '仓库地址无法访问',
      claimed_by: null,
      last_run_at: server.clock.now(),
    });

    // Through the page's API: housekeeping runs once now, and its next run is one interval after it.
    const ran = await server.request<JobScheduleRow[]>('POST', '/api/system_setting/jobs/run', {
      token: admin,
      body: { name: 'housekeeping' },
    });
    expect(ran.body.code).toBe(200);
    await scheduler().idle();
    expect(await row('housekeeping')).toMatchObject({
      lastRunAt: server.clock.now(),
      lastError: null,
      running: false,
      nextRunAt: server.clock.now() + HOUSEKEEPING_INTERVAL_MS,
    });
    const unknown = await server.request('POST', '/api/system_setting/jobs/run', {
      token: admin,
      body: { name: 'nothing' },
    });
    expect(unknown.body.msg).toBe(JobScheduleMessages.notFound);
  });

  it('a schedule turned off is not run when due, and runs again once turned on', async () => {
    const off = await server.request<JobScheduleRow[]>('POST', '/api/system_setting/jobs/enabled', {
      token: admin,
      body: { name: 'repository-poll', enabled: false },
    });
    expect(off.body.data.find((r) => r.name === 'repository-poll')?.enabled).toBe(false);
    const before = (await row('repository-poll')).lastRunAt;
    server.clock.advance(POLL_MS);
    expect(await scheduler().runDue()).toBe(0);
    expect((await row('repository-poll')).lastRunAt).toBe(before);
    await server.request('POST', '/api/system_setting/jobs/enabled', {
      token: admin,
      body: { name: 'repository-poll', enabled: true },
    });
    expect(await scheduler().runDue()).toBe(1);
    expect((await row('repository-poll')).lastRunAt).toBe(server.clock.now());
  });
});
