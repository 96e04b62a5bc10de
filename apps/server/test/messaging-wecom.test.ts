import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MessagingMessages, type WorkflowRow } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { insertItems, startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { transferFile } from './helpers/upload-client.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';

describe.each(testDialects())('pushes to WeCom group robots on %s', (dialect) => {
  let world: MessagingWorld;
  let workflow: WorkflowRow;
  let devKey: string;
  let prodKey: string;
  let itemIds: number[];
  const hour = 3_600_000;

  beforeAll(async () => {
    world = await startMessagingWorld(dialect, { publicUrl: 'https://release.example.com' });
    devKey = world.wecom.addRobot({ name: '测试群机器人' }).key;
    prodKey = world.wecom.addRobot({ name: '发布群机器人' }).key;
    const workflowRobot = world.wecom.addRobot({ name: '工作流机器人' }).key;
    // The app settings modal saves the two group robots (admins only).
    await world.server.db
      .updateTable('apps')
      .set({ dev_wecom_url: world.wecom.robotUrl(devKey), prod_wecom_url: world.wecom.robotUrl(prodKey) })
      .where('id', '=', world.appId)
      .execute();
    workflow = await world.createWorkflow({ tabName: '服务端', robotUrl: world.wecom.robotUrl(workflowRobot) });
    const now = world.server.clock.now();
    itemIds = await insertItems(world.server, { id: workflow.id, appId: world.appId }, [
      { commitId: '1111111aaaaaaa', message: 'perf: 启动快了一倍', author: '王五', time: now - 5 * hour },
      { commitId: '2222222bbbbbbb', message: 'feat: 新的排行榜 <@all>', author: '赵六', time: now - 3 * hour },
      { commitId: '3333333ccccccc', message: 'chore: 升级依赖', author: '王五', time: now - 30 * hour },
    ]);
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => {
    world.wecom.reset();
  });

  const messagesTo = (key: string) => world.wecom.robotMessages.filter((m) => m.key === key);
  const markdown = (key: string) =>
    String((messagesTo(key)[0]?.body.markdown as { content?: string } | undefined)?.content ?? '');

  it('sends an item to the test group (DevTest) as markdown with the type, short id and author', async () => {
    const res = await world.send(
      '/api/send_wecom_message',
      { appId: world.appId, receiveType: 'chat', chatEnv: 'DevTest', workflowId: workflow.id, commitId: itemIds[1] },
      world.editor.token,
    );
    expect(res.body.code).toBe(200);
    expect(res.body.data.deliveries[0]).toMatchObject({ receiverKind: 'wecom-robot', status: 'pending' });
    expect(res.body.data.deliveries[0]?.target).not.toContain(devKey);
    await world.runJobs();
    expect(messagesTo(devKey).map((m) => m.msgtype)).toEqual(['markdown']);
    const text = markdown(devKey);
    expect(text).toContain('### 星际战舰 · 服务端 更新日志');
    // A polled item has no web page of its own: its short id links to its /commit page here.
    expect(text).toContain(
      `> [2222222](https://release.example.com/commit?commitId=2222222bbbbbbb&workflowId=${workflow.id}) <font color="info">新增/变更</font> 新的排行榜 ＜@all＞ <font color="comment">赵六</font>`,
    );
    expect(messagesTo(prodKey)).toEqual([]);
    expect((await world.deliveries(res.body.data.deliveryIds, world.editor.token))[0]).toMatchObject({
      status: 'sent',
      receiverCode: 0,
    });
  });

  it('sends to the release group (PreFavTest) for admins, and a package as a news card with its install page', async () => {
    const version = await world.server.db
      .insertInto('app_versions')
      .values({
        app_id: world.appId,
        index_no: 3,
        native_package_type: 'ios',
        file_key: 'k/a.ipa',
        file_name: 'a.ipa',
        app_size: 100,
        app_version: '1.0.1',
        build: '12',
        bundle_id: 'com.star',
        display_name: '星际战舰',
        icon_key: null,
        description: '修复闪退',
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
    const res = await world.send('/api/send_wecom_message', {
      appId: world.appId,
      receiveType: 'chat',
      chatEnv: 'PreFavTest',
      appVersionId: Number(version.id),
    });
    expect(res.body.code).toBe(200);
    await world.runJobs();
    expect(messagesTo(prodKey)).toHaveLength(1);
    expect(messagesTo(prodKey)[0]?.body).toEqual({
      msgtype: 'news',
      news: {
        articles: [
          {
            title: '星际战舰 1.0.1 (12)',
            description: '修复闪退\niOS · 上传人 editor',
            url: `https://release.example.com/package/star?id=${Number(version.id)}`,
            picurl: 'https://release.example.com/api/media/icon.png',
          },
        ],
      },
    });
  });

  it('tells the chosen group about a package published with a chatEnv; the release group only for admins', async () => {
    const publish = async (token: string, versionName: string, chatEnv: string | null) => {
      const s3Url = await transferFile(
        world.server,
        token,
        `star-${versionName}.apk`,
        sampleApk({ label: '星际战舰', packageName: 'com.star', versionName, versionCode: 400 }),
      );
      return world.server.request<{ id: number }>('POST', '/api/v2/upload_app', {
        token,
        body: { appId: world.appId, s3Url, description: '新版本说明', attachFileUrls: [], chatEnv },
      });
    };
    const dev = await publish(world.editor.token, '4.0.0', 'DevTest');
    expect(dev.body.code).toBe(200);
    const refused = await publish(world.editor.token, '4.0.1', 'PreFavTest');
    expect([refused.status, refused.body.msg]).toEqual([403, MessagingMessages.releaseGroupAdminOnly]);
    const quiet = await publish(world.editor.token, '4.0.2', null);
    expect(quiet.body.code).toBe(200);
    const release = await publish(world.admin, '4.0.3', 'PreFavTest');
    expect(release.body.code).toBe(200);
    await world.runJobs();
    const titles = (key: string) =>
      messagesTo(key).map((m) => (m.body.news as { articles: Array<{ title: string }> }).articles[0]?.title);
    expect(titles(devKey)).toEqual(['星际战舰 4.0.0 (400)']);
    expect(titles(prodKey)).toEqual(['星际战舰 4.0.3 (400)']);
    expect(JSON.stringify(messagesTo(devKey)[0]?.body)).toContain(
      `https://release.example.com/package/star?id=${dev.body.data.id}`,
    );
  });

  it('refuses personal scopes on WeCom (robots only reach groups) and a missing robot', async () => {
    const self = await world.send(
      '/api/send_wecom_message',
      { appId: world.appId, receiveType: 'self', commitId: itemIds[0] },
      world.editor.token,
    );
    expect([self.status, self.body.msg]).toEqual([400, MessagingMessages.wecomPersonal]);
    const bare = await world.createWorkflow({ tabName: '无机器人' });
    const none = await world.send(
      '/api/send_wecom_message',
      { appId: world.appId, receiveType: 'commit', workflowId: bare.id, commitId: itemIds[0] },
      world.editor.token,
    );
    expect([none.status, none.body.msg]).toEqual([404, MessagingMessages.commitNotFound]);
    await insertItems(world.server, { id: bare.id, appId: world.appId }, [
      { commitId: '9999999', message: 'docs: 无处可发', author: '王五', time: world.server.clock.now() - hour },
    ]);
    const noRobot = await world.send(
      '/api/workflow/send_multi_commits',
      { appId: world.appId, workflowId: bare.id, startTime: 0, endTime: world.server.clock.now(), all: true },
      world.editor.token,
    );
    // Each says where the missing robot is set.
    expect([noRobot.status, noRobot.body.msg]).toEqual([
      400,
      '未设置群机器人地址：请在“编辑工作流 → 机器人地址”中填写群机器人的 Webhook 地址后再发送',
    ]);
    const devUrl = (
      await world.server.db
        .selectFrom('apps')
        .select('dev_wecom_url')
        .where('id', '=', world.appId)
        .executeTakeFirstOrThrow()
    ).dev_wecom_url;
    await world.server.db.updateTable('apps').set({ dev_wecom_url: null }).where('id', '=', world.appId).execute();
    const noGroup = await world.send(
      '/api/send_wecom_message',
      { appId: world.appId, receiveType: 'chat', chatEnv: 'DevTest', commitId: itemIds[0] },
      world.editor.token,
    );
    await world.server.db.updateTable('apps').set({ dev_wecom_url: devUrl }).where('id', '=', world.appId).execute();
    expect([noGroup.status, noGroup.body.msg]).toEqual([
      400,
      '未设置开发群机器人：请管理员在“应用设置 → 开发群机器人”中填写后再发送',
    ]);
    expect(world.wecom.requests).toEqual([]);
  });

  it("sends today's logs, a custom range (end included) and chosen items to the workflow robot", async () => {
    const now = world.server.clock.now();
    const today = await world.send(
      '/api/workflow/send_today_logs',
      { appId: world.appId, workflowId: workflow.id, startDate: now - 24 * hour, nextDate: now },
      world.editor.token,
    );
    const range = await world.send(
      '/api/workflow/send_multi_commits',
      { appId: world.appId, workflowId: workflow.id, startTime: now - 30 * hour, endTime: now - 5 * hour, all: true },
      world.editor.token,
    );
    const chosen = await world.send(
      '/api/workflow/send_multi_commits',
      { appId: world.appId, workflowId: workflow.id, commitIds: [itemIds[2]] },
      world.editor.token,
    );
    expect([today.body.code, range.body.code, chosen.body.code]).toEqual([200, 200, 200]);
    await world.runJobs();
    const texts = world.wecom.robotMessages.map((m) => String((m.body.markdown as { content: string }).content));
    expect(texts).toHaveLength(3);
    const ids = (text: string) => [...text.matchAll(/\[(\w{7})\]\(/g)].map((m) => m[1]);
    expect(texts.map(ids).sort()).toEqual([['1111111', '3333333'], ['2222222', '1111111'], ['3333333']].sort());
    const noEnd = await world.send(
      '/api/workflow/send_multi_commits',
      { appId: world.appId, workflowId: workflow.id, startTime: now - hour, all: true },
      world.editor.token,
    );
    expect([noEnd.status, noEnd.body.msg]).toEqual([400, `参数错误：endTime ${MessagingMessages.noEndPoint}`]);
    const empty = await world.send(
      '/api/workflow/send_today_logs',
      { appId: world.appId, workflowId: workflow.id, startDate: '2026-01-01', nextDate: '2026-01-02' },
      world.editor.token,
    );
    expect([empty.status, empty.body.msg]).toEqual([400, MessagingMessages.noCommits]);
  });

  it('keeps a long list under the 4096-byte markdown cap with a "N more" line', async () => {
    const big = await world.createWorkflow({ tabName: '大仓库', robotUrl: world.wecom.robotUrl(devKey) });
    const base = world.server.clock.now() - 10 * hour;
    await insertItems(
      world.server,
      { id: big.id, appId: world.appId },
      Array.from({ length: 120 }, (_, i) => ({
        commitId: `f${String(i).padStart(13, '0')}`,
        message: `fix: 修复第 ${i} 个问题`,
        author: '测试',
        time: base + i,
      })),
    );
    const res = await world.send(
      '/api/workflow/send_multi_commits',
      { appId: world.appId, workflowId: big.id, startTime: base, endTime: base + 200, all: true },
      world.editor.token,
    );
    expect(res.body.code).toBe(200);
    await world.runJobs();
    expect(world.wecom.state.robotRejections).toEqual([]);
    const text = markdown(devKey);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    const shown = text.split('\n').filter((l) => l.startsWith('> ')).length;
    expect(text).toContain(
      `…还有 ${120 - shown} 条，[查看全部](https://release.example.com/home/app/star?workflowId=${big.id})`,
    );
  });

  it('waits out the robot block (45009) and sends; an unknown key (93000) fails at once without retries', async () => {
    world.wecom.setRobotRateLimit({ perMinute: 1, blockMs: 60_000 });
    try {
      const first = await world.send(
        '/api/send_wecom_message',
        { appId: world.appId, receiveType: 'chat', commitId: itemIds[0] },
        world.editor.token,
      );
      const second = await world.send(
        '/api/send_wecom_message',
        { appId: world.appId, receiveType: 'chat', commitId: itemIds[1] },
        world.editor.token,
      );
      await world.runJobs();
      expect(messagesTo(devKey)).toHaveLength(1);
      const waiting = (await world.deliveries([...first.body.data.deliveryIds, ...second.body.data.deliveryIds])).find(
        (d) => d.status === 'pending',
      );
      expect(waiting).toMatchObject({ receiverCode: 45009 });
      expect(await world.runJobs()).toBe(0);
      await world.advance(61_000);
      await world.runJobs();
      expect(messagesTo(devKey)).toHaveLength(2);
    } finally {
      world.wecom.setRobotRateLimit({ perMinute: 20, blockMs: 60_000 });
    }

    await world.server.db
      .updateTable('apps')
      .set({ dev_wecom_url: world.wecom.robotUrl('removed-robot-key') })
      .where('id', '=', world.appId)
      .execute();
    const gone = await world.send(
      '/api/send_wecom_message',
      { appId: world.appId, receiveType: 'chat', commitId: itemIds[0] },
      world.editor.token,
    );
    await world.runJobs();
    await world.advance(3_600_000);
    expect(await world.runJobs()).toBe(0);
    const [row] = await world.deliveries(gone.body.data.deliveryIds);
    expect(row).toMatchObject({ status: 'failed', receiverCode: 93000, attempts: 1 });
    expect(row?.receiverMessage).toContain('invalid webhook url');
    await world.server.db
      .updateTable('apps')
      .set({ dev_wecom_url: world.wecom.robotUrl(devKey) })
      .where('id', '=', world.appId)
      .execute();
  });
});
