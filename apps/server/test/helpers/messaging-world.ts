import { FakeClock, startLarkFake, startWecomFake, type LarkFake, type WecomFake } from '@release/fakes';
import type { DeliveryRow, SendResult, WorkflowRow } from '@release/contract';
import type { DialectName } from '../../src/db/database.ts';
import { collectApp, grantApp, insertApp, insertItem } from './factories.ts';
import { createTestClock, startTestServer, type ApiResponse, type TestServer } from './test-app.ts';

/**
 * A test server whose Lark and WeCom live on the loopback fakes, with one app and its people: an admin, an
 * editor, a viewer and a subscriber, each linked to a Lark user (user_identities, as sign-in links them).
 * Time is one story: the server's clock and the fakes' clocks start together and move together.
 */
export interface MessagingWorld {
  server: TestServer;
  lark: LarkFake;
  wecom: WecomFake;
  appId: number;
  admin: string;
  editor: { userId: number; token: string; openId: string };
  viewer: { userId: number; token: string; openId: string };
  subscriber: { userId: number; token: string; openId: string };
  /** Moves every clock forward (backoff, rate windows, leases). */
  advance(ms: number): Promise<void>;
  /** Runs the schedules and jobs that are due, as the scheduler and runner of a server process would. */
  runJobs(): Promise<number>;
  createWorkflow(body: Record<string, unknown>, token?: string): Promise<WorkflowRow>;
  /** Stores update items through the workflow's push API (the way JPS or a wiki hands them over). */
  pushItems(
    workflow: WorkflowRow,
    items: Array<{ id: string; message: string; author?: string; time?: number }>,
  ): Promise<number>;
  send(path: string, body: unknown, token?: string): Promise<ApiResponse<SendResult>>;
  deliveries(ids: number[], token?: string): Promise<DeliveryRow[]>;
  close(): Promise<void>;
}

async function linkLark(server: TestServer, userId: number, openId: string, name: string) {
  await server.db
    .insertInto('user_identities')
    .values({
      user_id: userId,
      provider: 'lark',
      subject: openId,
      union_id: null,
      display_name: name,
      avatar_url: null,
      create_time: server.clock.now(),
      last_login_time: null,
    })
    .execute();
}

export async function startMessagingWorld(
  dialect: DialectName,
  options: { publicUrl?: string; larkEvents?: boolean } = {},
): Promise<MessagingWorld> {
  const start = createTestClock().now();
  const lark = await startLarkFake({ clock: new FakeClock({ frozen: true, start }) });
  const wecom = await startWecomFake({ clock: new FakeClock({ frozen: true, start }) });
  const server = await startTestServer(dialect, {
    publicUrl: options.publicUrl,
    lark: {
      appId: lark.app.appId,
      appSecret: lark.app.appSecret,
      openBaseUrl: lark.url,
      accountsBaseUrl: lark.url,
      passportBaseUrl: lark.url,
    },
    wecom: {
      corpId: wecom.corp.corpId,
      agentId: wecom.corp.agentId,
      secret: wecom.corp.secret,
      baseUrl: wecom.url,
      loginBaseUrl: wecom.url,
    },
    ...(options.larkEvents ? { larkEvents: { verificationToken: lark.app.verificationToken, encryptKey: null } } : {}),
  });
  if (server.clock.now() !== start) throw new Error('the server clock and the fakes must start together');
  const admin = await server.adminToken();
  const appId = await insertApp(server.db, { app_name: '星际战舰', path: 'star', app_icon: '/api/media/icon.png' });

  async function person(username: string, permit: 'edit' | 'view' | null) {
    const user = await server.createUser({ username, password: `${username}-pass-1`, roleLevel: 30 });
    if (permit) await grantApp(server.db, appId, user.userId, permit);
    const larkUser = lark.addUser({ name: username });
    await linkLark(server, user.userId, larkUser.openId, username);
    return { ...user, openId: larkUser.openId };
  }
  const editor = await person('editor', 'edit');
  const viewer = await person('viewer', 'view');
  const subscriber = await person('subscriber', null);
  await collectApp(server.db, appId, subscriber.userId, 'subscribe');
  const adminUser = await server.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  await linkLark(server, Number(adminUser.id), lark.addUser({ name: 'admin' }).openId, 'admin');

  const world: MessagingWorld = {
    server,
    lark,
    wecom,
    appId,
    admin,
    editor,
    viewer,
    subscriber,
    async advance(ms) {
      server.clock.advance(ms);
      await lark.advance(ms);
      await wecom.advance(ms);
    },
    async runJobs() {
      // Due schedules first (the Lark tasks pull queues its jobs), then the queue, as the two loops of a process would.
      await server.built.core.scheduler.runDue();
      return server.built.core.jobs.runDue();
    },
    async createWorkflow(body, token = admin) {
      const created = await server.request<{ id: number }>('POST', '/api/workflow', {
        token,
        body: { appId, tabName: '关卡', contentType: 'custom', manageType: 'other', ...body },
      });
      if (created.body.code !== 200) throw new Error(`create workflow: ${created.body.msg}`);
      const list = await server.request<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, { token: admin });
      const row = list.body.data.find((w) => w.id === created.body.data.id);
      if (!row) throw new Error('workflow not listed');
      return row;
    },
    async pushItems(workflow, items) {
      const response = await fetch(workflow.webhookUrl ?? '', {
        method: 'POST',
        headers: { authorization: `Bearer ${workflow.webhookSecret ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: items.map((i) => ({ author: '策划小李', time: server.clock.now(), ...i })) }),
      });
      const body = (await response.json()) as { code: number; msg: string; data: { created: number } };
      if (body.code !== 200) throw new Error(`push items: ${body.msg}`);
      return body.data.created;
    },
    send: (path, body, token = admin) => server.request<SendResult>('POST', path, { token, body }),
    async deliveries(ids, token = admin) {
      const res = await server.request<DeliveryRow[]>('GET', `/api/deliveries/mine?ids=${ids.join(',')}`, { token });
      if (res.body.code !== 200) throw new Error(`deliveries: ${res.body.msg}`);
      return res.body.data;
    },
    async close() {
      await server.close();
      await lark.close();
      await wecom.close();
    },
  };
  return world;
}

/** Inserts update items straight into a workflow (many at once, for size caps); returns their ids, oldest first. */
export async function insertItems(
  server: TestServer,
  workflow: { id: number; appId: number },
  items: Array<{ commitId: string; message: string; author: string; time: number }>,
): Promise<number[]> {
  const ids: number[] = [];
  for (const item of items) {
    ids.push(
      await insertItem(server.db, {
        appId: workflow.appId,
        workflowId: workflow.id,
        commitId: item.commitId,
        message: item.message,
        time: item.time,
        branch: 'main',
        remark: item.author,
      }),
    );
  }
  return ids;
}
