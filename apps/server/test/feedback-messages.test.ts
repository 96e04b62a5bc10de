import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FeedbackMessages, type DeliveryRow, type NotificationRow, type TaskRecord } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { startMessagingWorld, type MessagingWorld } from './helpers/messaging-world.ts';
import { transferFile } from './helpers/upload-client.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);
const BASE = 'https://release.example.com';

/**
 * A feedback bug reaches the app's people like news of the app (issue 20): the bell of its editors, and the app's
 * 开发群机器人 — a WeCom robot or a Lark bot, on the loopback fakes that check what they are sent.
 */
describe.each(testDialects())('a feedback bug reaches the app’s editors and its group robot on %s', (dialect) => {
  let world: MessagingWorld;
  let versionId: number;

  beforeAll(async () => {
    world = await startMessagingWorld(dialect, { publicUrl: BASE });
    const key = await transferFile(
      world.server,
      world.editor.token,
      'star.apk',
      sampleApk({ versionName: '3.2.0', versionCode: 320 }),
    );
    versionId = (
      await world.server.request<{ id: number }>('POST', '/api/v2/upload_app', {
        token: world.editor.token,
        body: { appId: world.appId, s3Url: key },
      })
    ).body.data.id;
    await world.runJobs();
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => {
    world.wecom.reset();
  });

  const robot = (url: string | null) =>
    world.server.db.updateTable('apps').set({ dev_wecom_url: url }).where('id', '=', world.appId).execute();

  /** The viewer sends feedback from the console's 安装包 list (signed in: no install pass). */
  async function send(text: string) {
    const body = new FormData();
    const fields = {
      url: 'star',
      versionId: String(versionId),
      text,
      deviceModel: 'SM-S9180',
      osVersion: 'Android 14',
    };
    for (const [k, v] of Object.entries({ ...fields, from: 'console' })) body.append(k, v);
    body.append('files', new Blob([PNG], { type: 'image/png' }), 'shot.png');
    const res = await fetch(`${world.server.url}/api/app_version/feedback`, {
      method: 'POST',
      headers: { token: world.viewer.token },
      body,
    });
    return (await res.json()) as { code: number; msg: string; data: { guid: string } };
  }
  const bug = async (guid: string) =>
    (
      await world.server.request<TaskRecord[]>('POST', '/api/tasks', {
        token: world.admin,
        body: { appId: world.appId, pageNo: 1, pageSize: 100, recordType: 'bug' },
      })
    ).body.data.find((b) => b.guid === guid);
  const notices = async (token: string) =>
    (await world.server.request<NotificationRow[]>('GET', '/api/messages', { token })).body.data.map(
      (n) => n.messageInfo.description,
    );
  const feedbackDeliveries = async () =>
    (
      await world.server.request<DeliveryRow[]>('GET', `/api/deliveries?appId=${world.appId}&pageSize=100`, {
        token: world.admin,
      })
    ).body.data.filter((d) => d.title.includes('收到测试反馈'));

  it('tells a WeCom group robot in markdown: build, what the tester wrote, device, sender and the app page', async () => {
    const wecomKey = world.wecom.addRobot({ name: '开发群机器人' }).key;
    await robot(world.wecom.robotUrl(wecomKey));
    const sent = await send('支付页白屏 <@all>\n点击“去支付”后页面一直空白');
    expect(sent.code).toBe(200);
    const created = await bug(sent.data.guid);
    expect(created?.description).toContain('来源：控制台安装包列表');
    expect(created?.description).toContain('提交人：viewer');
    expect(await notices(world.editor.token)).toContain(FeedbackMessages.notice('[测试反馈] 支付页白屏 <@all>'));
    // The sender is not told of their own feedback.
    expect(await notices(world.viewer.token)).toEqual([]);
    await world.runJobs();
    const messages = world.wecom.robotMessages.filter((m) => m.key === wecomKey);
    expect(messages.map((m) => m.msgtype)).toEqual(['markdown']);
    const text = String((messages[0]?.body.markdown as { content?: string } | undefined)?.content);
    expect(text.split('\n')).toEqual([
      '### 星际战舰 收到测试反馈（3.2.0 (320)）',
      '**应用**：星际战舰',
      '**版本**：3.2.0 (320) · Android · 上传人 editor',
      '**测试反馈**：[测试反馈] 支付页白屏 ＜@all＞',
      '点击“去支付”后页面一直空白',
      '**设备**：SM-S9180 · Android 14　**提交人**：viewer',
      `[在缺陷列表中查看](${BASE}/home/app/star)`,
    ]);
    expect(await feedbackDeliveries()).toMatchObject([{ receiverKind: 'wecom-robot', status: 'sent' }]);
  });

  it('tells a Lark bot with an orange card; a robot that refuses is logged with its own code, the bug stays', async () => {
    const bot = world.lark.addBot();
    await robot(`${world.lark.url}/open-apis/bot/v2/hook/${bot.token}`);
    expect((await send('启动闪退')).code).toBe(200);
    await world.runJobs();
    const card = world.lark.botMessages.filter((m) => m.botToken === bot.token).map((m) => m.card)[0] as {
      header: { title: { content: string }; template: string };
      body: { elements: Array<{ content: string }> };
    };
    expect(card.header).toMatchObject({
      title: { content: '星际战舰 收到测试反馈（3.2.0 (320)）' },
      template: 'orange',
    });
    expect(card.body.elements[0]?.content).toContain('**测试反馈**：[测试反馈] 启动闪退');
    expect(card.body.elements[0]?.content).toContain('**设备**：SM-S9180 · Android 14　**提交人**：viewer');

    // A WeCom key the robot does not know: WeCom answers 93000, the delivery log says so.
    await robot(world.wecom.robotUrl('00000000-0000-0000-0000-000000000000'));
    const refused = await send('无效的机器人');
    expect(refused.code).toBe(200);
    expect(await bug(refused.data.guid)).toBeDefined();
    await world.runJobs();
    expect((await feedbackDeliveries())[0]).toMatchObject({ status: 'failed', receiverCode: 93000 });
  });

  it('without a group robot the bug and the bell are all there is', async () => {
    await robot(null);
    const before = (await feedbackDeliveries()).length;
    expect((await send('没有机器人')).code).toBe(200);
    await world.runJobs();
    expect((await feedbackDeliveries()).length).toBe(before);
    expect(await notices(world.editor.token)).toContain(FeedbackMessages.notice('[测试反馈] 没有机器人'));
  });

  it('with Lark task sync on, a feedback bug goes into the app’s 缺陷 Bitable like every bug', async () => {
    world.lark.setRateLimit('task.get', null);
    for (const path of ['/api/create_task_list', '/api/create_bitable'])
      expect(
        (
          await world.server.request('POST', path, {
            token: world.editor.token,
            body: { appId: world.appId },
          })
        ).body.code,
      ).toBe(200);
    await world.runJobs();
    const appToken = [...world.lark.bitable.apps.keys()][0] ?? '';
    const table = world.lark.bitable.apps.get(appToken)?.tables.find((t) => t.name === '缺陷');
    const sent = await send('同步到飞书的反馈');
    expect(sent.code).toBe(200);
    await world.runJobs();
    const synced = (
      await world.server.request<TaskRecord>('GET', `/api/task?taskGuid=${sent.data.guid}`, {
        token: world.editor.token,
      })
    ).body.data;
    expect(synced.larkRecordId).toMatch(/^rec/);
    const record = table?.records.find((r) => r.record_id === synced.larkRecordId);
    const cells = Object.fromEntries((table?.fields ?? []).map((f) => [f.field_name, record?.cells.get(f.field_id)]));
    expect(cells).toMatchObject({ 标题: '[测试反馈] 同步到飞书的反馈', 本地ID: sent.data.guid });
  });
});
