import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MessagingMessages, ResultCode, type WorkflowRow } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { grantApp } from './helpers/factories.ts';
import { insertItems, startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';

type Card = {
  schema: string;
  header: { title: { content: string } };
  body: { elements: Array<{ tag: string; content: string }> };
};
const markdownOf = (card: unknown) => (card as Card).body.elements.map((e) => e.content).join('\n');

describe.each(testDialects())('pushes to Lark on %s', (dialect) => {
  let world: MessagingWorld;
  let workflow: WorkflowRow;
  let botToken: string;
  let itemIds: number[];
  const secret = 'SEC-robot-signing-secret';

  beforeAll(async () => {
    world = await startMessagingWorld(dialect);
    const bot = world.lark.addBot({ secret });
    botToken = bot.token;
    workflow = await world.createWorkflow({
      tabName: '客户端',
      robotUrl: `${world.lark.url}/open-apis/bot/v2/hook/${bot.token}`,
      robotSecret: secret,
    });
    itemIds = await insertItems(world.server, { id: workflow.id, appId: world.appId }, [
      {
        commitId: 'a1b2c3d4e5f6a7b8',
        message: 'feat(login): 支持飞书一键登录',
        author: '张三',
        time: world.server.clock.now() - 3600_000,
      },
      {
        commitId: 'b2c3d4e5f6a7b8c9',
        message: 'fix: 修复 <at id=all></at> 的崩溃',
        author: '李四',
        time: world.server.clock.now() - 1800_000,
      },
    ]);
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => {
    world.lark.reset();
  });

  it('keeps the signing secret write-only: editors see that one is set, never the secret', async () => {
    expect(workflow).toMatchObject({ hasRobotSecret: true });
    expect(JSON.stringify(workflow)).not.toContain(secret);
    const stored = await world.server.db
      .selectFrom('workflows')
      .select('robot_secret')
      .where('id', '=', workflow.id)
      .executeTakeFirstOrThrow();
    expect(stored.robot_secret).not.toContain(secret);
  });

  it('sends an item to the workflow robot as a signed interactive card, and logs it as sent', async () => {
    const res = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, commitId: itemIds[1] },
      world.editor.token,
    );
    expect(res.body.code).toBe(200);
    expect(res.body.data.deliveries).toMatchObject([
      { status: 'pending', receiverKind: 'lark-bot', title: '星际战舰 · 客户端 更新日志' },
    ]);
    expect(res.body.data.deliveries[0]?.target).not.toContain(botToken);

    await world.runJobs();
    // The fake checked the signature (HMAC of "timestamp\nsecret") before accepting the card.
    expect(world.lark.state.botRejections).toEqual([]);
    expect(world.lark.botMessages).toHaveLength(1);
    const card = world.lark.botMessages[0]?.card;
    expect(world.lark.botMessages[0]).toMatchObject({ botToken, msgType: 'interactive' });
    expect(card).toMatchObject({ schema: '2.0', header: { title: { content: '星际战舰 · 客户端 更新日志' } } });
    const text = markdownOf(card);
    // The short id, linked to the item's /commit page here (it has no web page of its own).
    expect(text).toContain(
      `- [b2c3d4e](${world.server.url}/commit?commitId=b2c3d4e5f6a7b8c9&workflowId=${workflow.id}) 【Bug修改】`,
    );
    expect(text.replace(/\]\([^)]*\)/g, ']')).not.toContain('b2c3d4e5');
    expect(text).toContain('【Bug修改】');
    expect(text).toContain('李四');
    // User text cannot mention everyone in the group.
    expect(text).not.toContain('<at id=all>');

    const [row] = await world.deliveries(res.body.data.deliveryIds, world.editor.token);
    expect(row).toMatchObject({ status: 'sent', receiverCode: 0, attempts: 1, requestedBy: 'editor' });
  });

  it('sends a package with its version, uploader and install link', async () => {
    const version = await world.server.db
      .insertInto('app_versions')
      .values({
        app_id: world.appId,
        index_no: 7,
        native_package_type: 'android',
        file_key: 'k/a.apk',
        file_name: 'a.apk',
        app_size: 100,
        app_version: '2.3.0',
        build: '230',
        bundle_id: 'com.star',
        display_name: '星际战舰',
        icon_key: null,
        description: '新关卡',
        attach_files: '[]',
        metadata: '{}',
        warnings: '[]',
        expire_date: null,
        chat_env: null,
        upload_by: world.editor.userId,
        create_time: world.server.clock.now(),
        update_time: world.server.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, indexNo: 7 },
      world.editor.token,
    );
    expect(res.body.code).toBe(200);
    await world.runJobs();
    const text = markdownOf(world.lark.botMessages[0]?.card);
    expect(text).toContain('2.3.0 (230) · Android · 上传人 editor');
    expect(text).toContain(`${world.server.url}/package/star?id=${Number(version.id)}`);
  });

  it('sends to the sender, the viewers, the subscribers and chosen users through the app bot', async () => {
    const self = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'self', commitId: itemIds[0] },
      world.editor.token,
    );
    const viewers = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'view_app', commitId: itemIds[0] },
      world.editor.token,
    );
    const subscribers = await world.send('/api/send_lark_message', {
      appId: world.appId,
      receiveType: 'subscribe',
      commitId: itemIds[0],
    });
    const chosen = await world.send('/api/send_lark_message', {
      appId: world.appId,
      receiveType: 'user_ids',
      userIds: [world.viewer.userId, world.subscriber.userId],
      commitId: itemIds[0],
    });
    expect([self, viewers, subscribers, chosen].map((r) => r.body.code)).toEqual([200, 200, 200, 200]);
    await world.runJobs();
    const received = world.lark.imMessages.map((m) => m.receiveId).sort();
    expect(received).toEqual(
      [
        world.editor.openId,
        world.viewer.openId,
        world.subscriber.openId,
        world.viewer.openId,
        world.subscriber.openId,
      ].sort(),
    );
    const content = JSON.parse(world.lark.imMessages[0]?.content ?? '{}') as Card;
    expect(content.header.title.content).toBe('星际战舰 · 客户端 更新日志');
    expect(viewers.body.data.skipped).toEqual([]);

    // A viewer who never signed in with Lark cannot be reached: the sender hears who was left out.
    const offline = await world.server.createUser({ username: 'offline', roleLevel: 20 });
    await grantApp(world.server.db, world.appId, offline.userId, 'view');
    const again = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'view_app', commitId: itemIds[0] },
      world.editor.token,
    );
    expect(again.body.data).toMatchObject({ skipped: ['offline'] });
    expect(again.body.data.deliveries.map((d) => d.target)).toEqual(['飞书用户 viewer']);
    await world.runJobs();
    await world.server.db.deleteFrom('app_users').where('user_id', '=', offline.userId).execute();

    const rows = await world.deliveries([...self.body.data.deliveryIds, ...chosen.body.data.deliveryIds]);
    expect(rows.map((r) => [r.receiverKind, r.status])).toEqual([
      ['lark-im', 'sent'],
      ['lark-im', 'sent'],
      ['lark-im', 'sent'],
    ]);
  });

  it('lets only admins send to subscribers, chosen users and the release group; viewers and strangers cannot push', async () => {
    const body = { appId: world.appId, commitId: itemIds[0] };
    const subscribe = await world.send(
      '/api/send_lark_message',
      { ...body, receiveType: 'subscribe' },
      world.editor.token,
    );
    expect([subscribe.status, subscribe.body.code, subscribe.body.msg]).toEqual([
      403,
      ResultCode.noPermission,
      MessagingMessages.scopeAdminOnly,
    ]);
    const chosen = await world.send(
      '/api/send_lark_message',
      { ...body, receiveType: 'user_ids', userIds: [world.viewer.userId] },
      world.editor.token,
    );
    expect(chosen.body.msg).toBe(MessagingMessages.scopeAdminOnly);
    const release = await world.send(
      '/api/send_lark_message',
      { ...body, receiveType: 'chat', chatEnv: 'PreFavTest' },
      world.editor.token,
    );
    expect([release.status, release.body.msg]).toEqual([403, MessagingMessages.releaseGroupAdminOnly]);
    const asViewer = await world.send('/api/send_lark_message', { ...body, receiveType: 'self' }, world.viewer.token);
    expect(asViewer.status).toBe(403);
    const asStranger = await world.send(
      '/api/send_lark_message',
      { ...body, receiveType: 'self' },
      world.subscriber.token,
    );
    expect(asStranger.status).toBe(404);
    const nothing = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'self' },
      world.editor.token,
    );
    expect([nothing.status, nothing.body.msg]).toEqual([400, `参数错误：commitId ${MessagingMessages.nothingToSend}`]);
    await world.runJobs();
    expect(world.lark.requests.filter((r) => r.path.includes('/bot/') || r.path.includes('/im/'))).toEqual([]);
  });

  it('sends to the app’s test group when it is a Lark bot, and tells why a user outside the app’s availability got nothing', async () => {
    const group = world.lark.addBot();
    await world.server.db
      .updateTable('apps')
      .set({ dev_wecom_url: `${world.lark.url}/open-apis/bot/v2/hook/${group.token}` })
      .where('id', '=', world.appId)
      .execute();
    const chat = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'chat', chatEnv: 'DevTest', commitId: itemIds[0] },
      world.editor.token,
    );
    expect(chat.body.code).toBe(200);
    const blocked = world.lark.state.users.get(world.viewer.openId);
    if (blocked) blocked.canUseApp = false;
    const viewers = await world.send(
      '/api/send_lark_message',
      { appId: world.appId, receiveType: 'view_app', commitId: itemIds[0] },
      world.editor.token,
    );
    await world.runJobs();
    if (blocked) blocked.canUseApp = true;
    expect(world.lark.botMessages.map((m) => m.botToken)).toEqual([group.token]);
    const [row] = await world.deliveries(viewers.body.data.deliveryIds);
    expect(row).toMatchObject({ status: 'failed', receiverCode: 230013, attempts: 1 });
    await world.server.db.updateTable('apps').set({ dev_wecom_url: null }).where('id', '=', world.appId).execute();
  });

  it('cuts a long list to the 20 KB webhook cap with a "N more" line and a link, never refused', async () => {
    const big = await world.createWorkflow({ tabName: '大仓库', robotUrl: workflow.robotUrl, robotSecret: secret });
    const base = world.server.clock.now() - 86_400_000;
    const many = Array.from({ length: 400 }, (_, i) => ({
      commitId: `c${String(i).padStart(15, '0')}`,
      message: `feat: 第 ${i} 个改动，调整了关卡、角色和界面里的许多细节，让玩家体验更好`,
      author: '王五',
      time: base + i * 1000,
    }));
    await insertItems(world.server, { id: big.id, appId: world.appId }, many);
    const res = await world.send(
      '/api/workflow/send_multi_commits',
      { appId: world.appId, workflowId: big.id, startTime: base, endTime: base + 400_000, all: true },
      world.editor.token,
    );
    expect(res.body.code).toBe(200);
    await world.runJobs();
    expect(world.lark.state.botRejections).toEqual([]);
    const [message] = world.lark.botMessages;
    const text = markdownOf(message?.card);
    expect(text).toContain('**更新日志**（共 400 条）');
    const shown = text.split('\n').filter((l) => l.startsWith('- ')).length;
    expect(shown).toBeGreaterThan(20);
    expect(text).toContain(
      `…还有 ${400 - shown} 条，[查看全部](${world.server.url}/home/app/star?workflowId=${big.id})`,
    );
    const body = world.lark.requests.find((r) => r.path.includes('/bot/v2/hook/'));
    expect(Buffer.byteLength(JSON.stringify(body?.body))).toBeLessThanOrEqual(20 * 1024);
  });

  it('retries after the bot rate limit (11232) and sends every card once', async () => {
    world.lark.setRateLimit('bot.hook', { perSecond: 1 });
    try {
      const sends = await Promise.all(
        [0, 1, 2].map(() =>
          world.send(
            '/api/send_lark_message',
            { appId: world.appId, receiveType: 'commit', workflowId: workflow.id, commitId: itemIds[0] },
            world.editor.token,
          ),
        ),
      );
      const ids = sends.flatMap((s) => s.body.data.deliveryIds);
      await world.runJobs();
      expect(world.lark.botMessages).toHaveLength(1);
      const waiting = (await world.deliveries(ids)).filter((d) => d.status === 'pending');
      expect(waiting.map((d) => [d.receiverCode, d.receiverMessage?.includes('11232')])).toEqual([
        [11232, true],
        [11232, true],
      ]);
      // Nothing is due before the backoff has passed.
      expect(await world.runJobs()).toBe(0);
      for (let round = 0; round < 4 && world.lark.botMessages.length < 3; round += 1) {
        await world.advance(60_000);
        await world.runJobs();
      }
      expect(world.lark.botMessages).toHaveLength(3);
      expect((await world.deliveries(ids)).map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
    } finally {
      world.lark.setRateLimit('bot.hook', { perMinute: 100, perSecond: 5 });
    }
  });

  it('does not retry a permanent refusal (bad signature 19021) and shows the receiver’s reason', async () => {
    const other = world.lark.addBot({ secret: 'the-real-secret' });
    const wrong = await world.createWorkflow({
      tabName: '签名错误',
      robotUrl: `${world.lark.url}/open-apis/bot/v2/hook/${other.token}`,
      robotSecret: 'a-wrong-secret',
    });
    await insertItems(world.server, { id: wrong.id, appId: world.appId }, [
      { commitId: 'dddddddddddd', message: 'docs: 说明', author: '张三', time: world.server.clock.now() - 10_000 },
    ]);
    const res = await world.send(
      '/api/workflow/send_today_logs',
      {
        appId: world.appId,
        workflowId: wrong.id,
        startDate: world.server.clock.now() - 86_400_000,
        nextDate: world.server.clock.now(),
      },
      world.editor.token,
    );
    expect(res.body.code).toBe(200);
    await world.runJobs();
    await world.advance(3_600_000);
    expect(await world.runJobs()).toBe(0);
    const [row] = await world.deliveries(res.body.data.deliveryIds);
    expect(row).toMatchObject({ status: 'failed', receiverCode: 19021, attempts: 1 });
    expect(row?.receiverMessage).toContain('sign match fail');
    expect(world.lark.state.botRejections.map((r) => r.code)).toEqual([19021]);

    // Fixed by an editor, then retried by an admin from the delivery log: sent.
    await world.server.request('POST', '/api/workflow/update', {
      token: world.admin,
      body: {
        id: wrong.id,
        appId: world.appId,
        tabName: '签名错误',
        contentType: 'custom',
        manageType: 'other',
        robotUrl: wrong.robotUrl,
        robotSecret: 'the-real-secret',
      },
    });
    const log = await world.server.request<Array<{ id: number; status: string }>>(
      'GET',
      `/api/deliveries?appId=${world.appId}&status=failed`,
      { token: world.admin },
    );
    expect(log.body.data.map((d) => d.id)).toContain(row?.id);
    const retried = await world.server.request('POST', '/api/delivery/retry', {
      token: world.admin,
      body: { id: row?.id },
    });
    expect(retried.body).toMatchObject({ code: 200, data: { status: 'pending' } });
    await world.runJobs();
    expect((await world.deliveries([row?.id ?? 0]))[0]).toMatchObject({ status: 'sent' });
    const again = await world.server.request('POST', '/api/delivery/retry', {
      token: world.admin,
      body: { id: row?.id },
    });
    expect([again.status, again.body.msg]).toEqual([409, MessagingMessages.retryOnlyFailed]);
  });
});
