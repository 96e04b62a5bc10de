import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, startLarkFake } from '@release/fakes';
import { MessagingMessages, type WorkflowRow } from '@release/contract';
import { createJobQueue, LEASE_MS } from '../src/jobs/queue.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertItems, startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';

/** A server that must never be called: it counts what reaches it. */
async function startTrap() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDialects())('delivery jobs on %s', (dialect) => {
  let world: MessagingWorld;
  let trap: Awaited<ReturnType<typeof startTrap>>;
  let workflow: WorkflowRow;
  let botToken: string;
  let itemId: number;

  beforeAll(async () => {
    world = await startMessagingWorld(dialect);
    trap = await startTrap();
    botToken = world.lark.addBot().token;
    workflow = await world.createWorkflow({
      tabName: '客户端',
      robotUrl: `${world.lark.url}/open-apis/bot/v2/hook/${botToken}`,
    });
    const [id] = await insertItems(world.server, { id: workflow.id, appId: world.appId }, [
      { commitId: 'abcdef0123456', message: 'feat: 新功能', author: '张三', time: world.server.clock.now() - 1000 },
    ]);
    itemId = id ?? 0;
  });
  afterAll(async () => {
    await world?.close();
    await trap?.close();
  });
  beforeEach(() => {
    world.lark.reset();
  });

  it('sends once when the process dies after the request left: the next process reports it, never resends', async () => {
    const res = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, commitId: itemId },
      world.editor.token,
    );
    // Process A takes the job and sends, then dies before it can record the outcome.
    const doomed = createJobQueue({ db: world.server.db, clock: world.server.clock, owner: 'process-a' });
    const [claimed] = await doomed.repository.claim('process-a', world.server.clock.now(), LEASE_MS, 1);
    expect(claimed).toBeDefined();
    const definition = world.server.built.core.shared.deliveryJob;
    await definition.run(definition.payload.parse(JSON.parse(claimed?.payload ?? '{}')), {
      id: claimed?.id ?? 0,
      attempt: 1,
      maxAttempts: 6,
    });
    expect(world.lark.botMessages).toHaveLength(1);

    // This process does not touch a job another process holds under a live lease…
    expect(await world.runJobs()).toBe(0);
    // …and takes it over once the lease has run out: the delivery was mid-send, so it is reported, not resent.
    await world.advance(LEASE_MS + 1000);
    expect(await world.runJobs()).toBe(1);
    expect(world.lark.botMessages).toHaveLength(1);
    const [row] = await world.deliveries(res.body.data.deliveryIds);
    expect(row).toMatchObject({ status: 'failed', receiverMessage: MessagingMessages.interrupted });
    const log = await world.server.request<Array<{ id: number; status: string; receiverMessage: string }>>(
      'GET',
      '/api/deliveries?status=failed',
      { token: world.admin },
    );
    expect(log.body.data.find((d) => d.id === row?.id)).toMatchObject({
      receiverMessage: MessagingMessages.interrupted,
    });
  });

  it('sends a Lark app message again after a crash: Lark drops the repeat by its uuid, the user gets it once', async () => {
    const res = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'self', commitId: itemId },
      world.editor.token,
    );
    const doomed = createJobQueue({ db: world.server.db, clock: world.server.clock, owner: 'process-a' });
    const [claimed] = await doomed.repository.claim('process-a', world.server.clock.now(), LEASE_MS, 1);
    const definition = world.server.built.core.shared.deliveryJob;
    await definition.run(definition.payload.parse(JSON.parse(claimed?.payload ?? '{}')), {
      id: claimed?.id ?? 0,
      attempt: 1,
      maxAttempts: 6,
    });
    await world.advance(LEASE_MS + 1000);
    expect(await world.runJobs()).toBe(1);
    expect(world.lark.imMessages.filter((m) => m.receiveId === world.editor.openId)).toHaveLength(1);
    expect((await world.deliveries(res.body.data.deliveryIds))[0]).toMatchObject({ status: 'sent' });
  });

  it('refuses robot addresses outside the configured Lark/WeCom hosts, and never calls them', async () => {
    const hook = `${trap.url}/open-apis/bot/v2/hook/abc`;
    const saved = await world.server.request('POST', '/api/workflow', {
      token: world.admin,
      body: { appId: world.appId, tabName: '外部', contentType: 'custom', manageType: 'other', robotUrl: hook },
    });
    expect([saved.status, saved.body.msg]).toEqual([400, `机器人地址：${MessagingMessages.robotUrlInvalid}`]);
    const app = await world.server.request('POST', '/api/app', {
      token: world.admin,
      body: {
        appName: '外部',
        appType: 'unity',
        password: '135790',
        path: 'outer',
        devWeComUrl: `${trap.url}/cgi-bin/webhook/send?key=k`,
      },
    });
    expect([app.status, app.body.msg]).toEqual([400, `开发群机器人：${MessagingMessages.robotUrlInvalid}`]);
    // Look-alikes on the right host are refused too: other paths, user info, extra query.
    for (const url of [
      `${world.lark.url}/open-apis/im/v1/messages`,
      `${world.lark.url.replace('http://', 'http://u:p@')}/open-apis/bot/v2/hook/x`,
      `${world.wecom.url}/cgi-bin/webhook/send?key=k&debug=1`,
    ]) {
      const res = await world.server.request('POST', '/api/workflow/update', {
        token: world.admin,
        body: {
          id: workflow.id,
          appId: world.appId,
          tabName: '客户端',
          contentType: 'custom',
          manageType: 'other',
          robotUrl: url,
        },
      });
      expect([url, res.status]).toEqual([url, 400]);
    }

    // An address stored before the rule (or under another configuration) is refused at send time.
    await world.server.db.updateTable('workflows').set({ robot_url: hook }).where('id', '=', workflow.id).execute();
    const send = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, commitId: itemId },
      world.editor.token,
    );
    expect([send.status, send.body.msg]).toEqual([400, MessagingMessages.robotUrlRefused]);
    // A queued delivery whose address is no longer allowed fails without a request.
    await world.server.db
      .updateTable('workflows')
      .set({ robot_url: `${world.lark.url}/open-apis/bot/v2/hook/${botToken}` })
      .where('id', '=', workflow.id)
      .execute();
    const queued = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, commitId: itemId },
      world.editor.token,
    );
    const [job] = await world.server.db
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('id', '=', queued.body.data.deliveries[0]?.jobId ?? 0)
      .execute();
    const payload = JSON.parse(job?.payload ?? '{}') as { receiver: { url: string } };
    payload.receiver.url = hook;
    await world.server.db
      .updateTable('jobs')
      .set({ payload: JSON.stringify(payload) })
      .where('id', '=', job?.id ?? 0)
      .execute();
    await world.runJobs();
    expect((await world.deliveries(queued.body.data.deliveryIds))[0]).toMatchObject({
      status: 'failed',
      receiverMessage: MessagingMessages.robotUrlRefused,
      attempts: 0,
    });
    expect(trap.hits).toEqual([]);
    expect(world.lark.botMessages).toEqual([]);
  });

  it('autoPush sends each new item once, by itself, and not the history', async () => {
    const bot = world.lark.addBot({ secret: 'auto-secret' });
    const auto = await world.createWorkflow({
      tabName: '策划',
      manageType: 'JPS',
      enterpriseName: '星辰工作室',
      robotUrl: `${world.lark.url}/open-apis/bot/v2/hook/${bot.token}`,
      robotSecret: 'auto-secret',
      autoPush: false,
    });
    expect(await world.pushItems(auto, [{ id: 'old-1', message: '旧的改动' }])).toBe(1);
    // Switched on later: what was there before is history.
    const update = await world.server.request('POST', '/api/workflow/update', {
      token: world.admin,
      body: {
        id: auto.id,
        appId: world.appId,
        tabName: '策划',
        contentType: 'custom',
        manageType: 'JPS',
        enterpriseName: '星辰工作室',
        robotUrl: auto.robotUrl,
        autoPush: true,
      },
    });
    expect(update.body.code).toBe(200);

    expect(
      await world.pushItems(auto, [
        { id: 'new-1', message: '第一章关卡' },
        { id: 'new-2', message: '第二章关卡' },
      ]),
    ).toBe(2);
    // The same items again, and a second run of the same scan, change nothing.
    expect(await world.pushItems(auto, [{ id: 'new-1', message: '第一章关卡' }])).toBe(0);
    await world.server.built.core.shared.autoPush.trigger([{ id: auto.id, auto_push: 1, robot_url: auto.robotUrl }]);
    await world.runJobs();
    const cards = () =>
      world.lark.botMessages.filter((m) => m.botToken === bot.token).map((m) => JSON.stringify(m.card));
    expect(cards()).toHaveLength(1);
    expect(cards()[0]).toContain('第一章关卡');
    expect(cards()[0]).toContain('第二章关卡');
    expect(cards()[0]).not.toContain('旧的改动');
    // The secret kept from creation still signs (an update without robotSecret keeps it).
    expect(world.lark.state.botRejections).toEqual([]);

    // History arriving late (made days ago) moves the cursor on but is not announced.
    expect(
      await world.pushItems(auto, [
        { id: 'late-1', message: '三天前的改动', time: world.server.clock.now() - 3 * 86_400_000 },
      ]),
    ).toBe(1);
    await world.runJobs();
    expect(cards()).toHaveLength(1);
    expect(await world.pushItems(auto, [{ id: 'new-3', message: '第三章关卡' }])).toBe(1);
    await world.runJobs();
    await world.runJobs();
    expect(cards()).toHaveLength(2);
    expect(cards()[1]).toContain('第三章关卡');
    expect(cards()[1]).not.toContain('第一章关卡');
    expect(cards()[1]).not.toContain('三天前的改动');
    const log = await world.server.request<Array<{ workflowId: number; requestedBy: string | null; status: string }>>(
      'GET',
      `/api/deliveries?appId=${world.appId}`,
      { token: world.admin },
    );
    expect(log.body.data.filter((d) => d.workflowId === auto.id).map((d) => [d.requestedBy, d.status])).toEqual([
      [null, 'sent'],
      [null, 'sent'],
    ]);
  });

  it('retries after a server error and while Lark cannot be reached, then sends once', async () => {
    world.lark.injectError({ route: 'bot.hook', status: 500, body: { code: 5000, msg: 'internal error' } });
    const res = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, commitId: itemId },
      world.editor.token,
    );
    await world.runJobs();
    expect((await world.deliveries(res.body.data.deliveryIds))[0]).toMatchObject({
      status: 'pending',
      receiverCode: 5000,
      attempts: 1,
    });

    // Lark goes away: the connection is refused, so nothing can have arrived, and the job waits again.
    const port = Number(new URL(world.lark.url).port);
    await world.lark.close();
    await world.advance(30_000);
    await world.runJobs();
    const [waiting] = await world.deliveries(res.body.data.deliveryIds);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 2 });
    expect(waiting?.receiverMessage).toContain('网络错误');

    // Back on the same address: the next attempt (after the longer backoff) goes through.
    world.lark = await startLarkFake({
      port,
      clock: new FakeClock({ frozen: true, start: world.server.clock.now() }),
      bots: [{ token: botToken }],
    });
    expect(await world.runJobs()).toBe(0);
    await world.advance(60_000);
    await world.runJobs();
    expect(world.lark.botMessages).toHaveLength(1);
    expect((await world.deliveries(res.body.data.deliveryIds))[0]).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('two processes draining the same queue send every delivery exactly once', async () => {
    // The bot's own 5-per-second limit is another test's subject.
    world.lark.setRateLimit('bot.hook', null);
    const sends = await Promise.all(
      Array.from({ length: 8 }, () =>
        world.send(
          '/api/send_lark_message',
          { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, commitId: itemId },
          world.editor.token,
        ),
      ),
    );
    const other = createJobQueue({
      db: world.server.db,
      clock: world.server.clock,
      owner: 'process-b',
      concurrency: 2,
    });
    other.register(world.server.built.core.shared.deliveryJob);
    const [mine, theirs] = await Promise.all([world.runJobs(), other.runDue()]);
    expect(mine + theirs).toBe(8);
    expect(world.lark.botMessages).toHaveLength(8);
    const rows = await world.deliveries(sends.flatMap((s) => s.body.data.deliveryIds));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(Array.from({ length: 8 }, () => ['sent', 1]));
  });

  it('shows the delivery log to admins only', async () => {
    const asEditor = await world.server.request('GET', '/api/deliveries', { token: world.editor.token });
    expect(asEditor.status).toBe(403);
    const mine = await world.server.request<unknown[]>('GET', `/api/deliveries/mine?ids=1,2,3`, {
      token: world.viewer.token,
    });
    expect(mine.body.data).toEqual([]);
    const page = await world.server.request<unknown[]>('GET', '/api/deliveries?pageNo=1&pageSize=2', {
      token: world.admin,
    });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.total).toBeGreaterThan(2);
  });
});
