import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowRow } from '@release/contract';
import { createSandbox, GitRepo } from '../src/integrations/git/testing/git-fixture.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const alice = { name: 'Alice', email: 'alice@studio.test' };
const t0 = Date.UTC(2026, 10, 20) / 1000;

/** The poll entry point of the inbound service (the schedule's pollAll and the first sync after a save). */
describe.each(testDialects())('polls through the inbound service on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;
  const sandbox = createSandbox('release-inbound-poll-');
  let repo: GitRepo;

  beforeAll(async () => {
    repo = GitRepo.init(sandbox.path('client'));
    repo.commit({ message: 'feat: 第一个提交', author: alice, time: t0, files: { 'a.txt': '1' } });
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: 'P', appType: 'unity', password: '135790', path: 'polls' },
      })
    ).body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
    sandbox.cleanup();
  });

  const inbound = () => server.built.core.shared.inbound;
  const create = async (body: Record<string, unknown>) =>
    (await server.request<{ id: number }>('POST', '/api/workflow', { token: admin, body: { appId, ...body } })).body
      .data.id;
  const lastSync = async (id: number) =>
    (await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin })).body.data.find(
      (w) => w.id === id,
    )?.lastSyncTime;

  it('polls a repository workflow unless an editor synced it since the save', async () => {
    const id = await create({ contentType: 'default', tabName: '客户端', repoType: 'git', repoPath: repo.url });
    const savedAt = server.clock.now();
    expect(await inbound().pollWorkflow(id, { unlessSyncedSince: savedAt })).toEqual({ created: 1, error: null });
    expect(await lastSync(id)).toBe(savedAt);
    repo.commit({ message: 'feat: 第二个提交', author: alice, time: t0 + 60, files: { 'b.txt': '1' } });
    expect(await inbound().pollWorkflow(id, { unlessSyncedSince: savedAt })).toEqual({ skipped: 'synced since' });
    // The schedule's poll takes every repository workflow, whenever it was last synced.
    expect(await inbound().pollAll()).toBe(1);
  });

  it('skips a workflow that was deleted or is no repository workflow', async () => {
    const custom = await create({
      contentType: 'custom',
      tabName: '关卡',
      manageType: 'JPS_GAME',
      enterpriseName: '星辰工作室',
    });
    expect(await inbound().pollWorkflow(custom)).toEqual({ skipped: 'not a repository workflow' });
    const gone = await create({ contentType: 'default', tabName: '删除', repoType: 'git', repoPath: repo.url });
    await server.request('DELETE', `/api/workflow?id=${gone}`, { token: admin });
    expect(await inbound().pollWorkflow(gone)).toEqual({ skipped: 'not a repository workflow' });
  });
});
