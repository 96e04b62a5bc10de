import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLarkFake, startWecomFake, type LarkFake, type WecomFake } from '@release/fakes';
import type { WorkflowRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { clickAtRest, expectToast, openDropdown, pickOption, settled } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { larkEnv, wecomEnv } from './helpers/fakes.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { EDITOR, signIn } from './helpers/workflow-world.ts';

const PUSHED = '消息已推送到飞书/企业微信';

function cardText(card: unknown): string {
  return JSON.stringify(card);
}

describe('pushing update items and packages to group robots from the browser', () => {
  let lark: LarkFake;
  let wecom: WecomFake;
  let server: ServerProcess;
  let browser: Browser;
  let botToken: string;
  let unsignedBotToken: string;
  let robotKey: string;
  let custom: WorkflowRow;
  let unsigned: WorkflowRow;
  let packages: WorkflowRow;
  let robotless: WorkflowRow;
  let appId: number;
  const appPath = 'fleet';

  beforeAll(async () => {
    lark = await startLarkFake();
    wecom = await startWecomFake();
    botToken = lark.addBot({ secret: 'bot-signing-secret' }).token;
    unsignedBotToken = lark.addBot({ secret: 'only-lark-knows' }).token;
    robotKey = wecom.addRobot({ name: '测试群' }).key;
    server = await startServerProcess({ ...larkEnv(lark), ...wecomEnv(wecom) });
    browser = await launchBrowser();

    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const editorId = await api.createUser(admin, EDITOR.username, EDITOR.password, 30);
    appId = await api.createApp(admin, { appName: '星际舰队', path: appPath, editUserIds: [editorId] });
    const hook = (token: string) => `${lark.url}/open-apis/bot/v2/hook/${token}`;
    await api.call('POST', '/api/workflow', admin, {
      appId,
      tabName: '策划',
      contentType: 'custom',
      manageType: 'JPS',
      enterpriseName: '星辰工作室',
      robotUrl: hook(botToken),
      robotSecret: 'bot-signing-secret',
    });
    await api.call('POST', '/api/workflow', admin, {
      appId,
      tabName: '未签名',
      contentType: 'custom',
      manageType: 'other',
      robotUrl: hook(unsignedBotToken),
    });
    await api.call('POST', '/api/workflow', admin, {
      appId,
      tabName: '安装包',
      contentType: 'package',
      packageType: 'apk',
      robotUrl: wecom.robotUrl(robotKey),
    });
    await api.call('POST', '/api/workflow', admin, {
      appId,
      tabName: '无机器人',
      contentType: 'custom',
      manageType: 'other',
    });
    const rows = await api.call<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, admin);
    [custom, unsigned, packages, robotless] = ['策划', '未签名', '安装包', '无机器人'].map(
      (name) => rows.find((w) => w.tabName === name) as WorkflowRow,
    ) as [WorkflowRow, WorkflowRow, WorkflowRow, WorkflowRow];
    const now = Date.now();
    for (const [workflow, items] of [
      [
        custom,
        [
          { id: 'lvl-1', time: now - 120_000, author: '策划小李', message: 'feat: 第一章关卡' },
          { id: 'lvl-2', time: now - 60_000, author: '策划小王', message: 'fix: 第二章关卡难度' },
        ],
      ],
      [unsigned, [{ id: 'doc-1', time: now - 30_000, author: '策划小李', message: 'docs: 世界观设定' }]],
      [robotless, [{ id: 'note-1', time: now - 20_000, author: '策划小李', message: 'docs: 角色小传' }]],
    ] as const) {
      const res = await fetch(workflow.webhookUrl ?? '', {
        method: 'POST',
        headers: { authorization: `Bearer ${workflow.webhookSecret ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items }),
      });
      expect(res.status).toBe(200);
    }
    const editor = await api.login(EDITOR.username, EDITOR.password);
    await api.publishPackage(
      editor,
      appId,
      'StarFleet.apk',
      sampleApk({ label: '星际舰队', packageName: 'com.studio.starfleet', versionName: '2.0.1', versionCode: 201 }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await lark?.close();
    await wecom?.close();
  });

  it('sends one item to the Lark robot as a signed card, and a batch from a start to a chosen end', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${custom.id}`);
    const second = page.getByTestId('commit-item').filter({ hasText: '第二章关卡难度' });
    await second.getByTestId('commit-item-menu').click();
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-send').click();
    await expect.poll(() => page.getByTestId('message-preview').innerText()).toContain('第二章关卡难度');
    await clickAtRest(page.getByTestId('send-message-ok'));
    await expectToast(page, PUSHED);
    expect(lark.botMessages.map((m) => m.botToken)).toEqual([botToken]);
    expect(cardText(lark.botMessages[0]?.card)).toContain('星际舰队 · 策划 更新日志');
    // A pushed item without a link of its own links to its /commit page here (详情).
    expect(cardText(lark.botMessages[0]?.card)).toMatch(
      new RegExp(
        `第二章关卡难度 \\[详情\\]\\(${server.url}/commit\\?commitId=[^)]*&workflowId=${custom.id}\\) — 策划小王`,
      ),
    );

    const first = page.getByTestId('commit-item').filter({ hasText: '第一章关卡' });
    await first.getByTestId('commit-item-menu').click();
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-batch').click();
    await clickAtRest(page.getByTestId('send-logs-custom'));
    // Items pushed by another system (ids x:…) are named by their subject, without an id.
    expect((await page.getByTestId('send-logs-start').innerText()).trim()).toBe('第一章关卡');
    await clickAtRest(page.getByTestId('send-logs-ok'));
    await expectToast(page, '请选择想要推送的日志截止点');
    // Only items after the start are offered as end points.
    const end = page.getByTestId('send-logs-end');
    const options = (await openDropdown(page, end)).locator('.ant-select-item-option');
    await expect.poll(() => options.allInnerTexts()).toEqual(['第二章关卡难度']);
    await pickOption(page, end, '第二章关卡难度');
    await expect.poll(() => page.getByTestId('message-preview').innerText()).toContain('第一章关卡');
    await expect.poll(() => page.getByTestId('message-preview').innerText()).toContain('共 2 条');
    await page.screenshot({ path: '.tmp/e2e-send-logs.png' });
    await clickAtRest(page.getByTestId('send-logs-ok'));
    await expect.poll(() => lark.botMessages.length).toBe(2);
    expect(cardText(lark.botMessages[1]?.card)).toContain('（共 2 条）');
    // Back in day mode after the send.
    await first.getByTestId('commit-item-menu').click();
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-batch').click();
    await expect.poll(() => page.getByRole('radio', { name: '今日日志' }).isChecked()).toBe(true);
    expect(lark.state.botRejections).toEqual([]);
    await context.close();
  });

  it('shows the receiver’s reason when it refuses (a bot that expects a signature)', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 });
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${unsigned.id}`);
    await page.getByTestId('commit-item').filter({ hasText: '世界观设定' }).getByTestId('commit-item-menu').click();
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-send').click();
    await page.screenshot({ path: '.tmp/e2e-send-message-768.png' });
    await clickAtRest(page.getByTestId('send-message-ok'));
    await expectToast(
      page,
      '推送失败：sign match fail or timestamp is not within one hour from current time（飞书 19021）',
    );
    expect(lark.botMessages.filter((m) => m.botToken === unsignedBotToken)).toEqual([]);
    await context.close();
  });

  it('a workflow without a robot does not offer it: the sender is the default, and a missing group robot says where to set it', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 });
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${robotless.id}`);
    await page.getByTestId('commit-item').filter({ hasText: '角色小传' }).getByTestId('commit-item-menu').click();
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-send').click();
    const robot = page.getByRole('radio', { name: /工作流群机器人/ });
    await expect.poll(() => robot.isDisabled()).toBe(true);
    expect(await page.getByTestId('send-message-scope').innerText()).toContain(
      '工作流群机器人（未设置，可在“编辑工作流 → 机器人地址”中填写）',
    );
    expect(await page.getByRole('radio', { name: '发给自己（飞书）' }).isChecked()).toBe(true);
    await page.screenshot({ path: '.tmp/e2e-send-message-no-robot-768.png' });
    await clickAtRest(page.getByTestId('send-scope-chatDev'));
    await clickAtRest(page.getByTestId('send-message-ok'));
    await expectToast(page, '未设置开发群机器人：请管理员在“应用设置 → 开发群机器人”中填写后再发送');
    await page.keyboard.press('Escape');
    await page.getByTestId('commit-item').filter({ hasText: '角色小传' }).getByTestId('commit-item-menu').click();
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-batch').click();
    expect(
      await page
        .getByTestId('send-logs-destination')
        .getByRole('radio', { name: /工作流群机器人/ })
        .isDisabled(),
    ).toBe(true);
    expect(await page.getByTestId('send-logs-destination').getByRole('radio', { name: '测试群' }).isChecked()).toBe(
      true,
    );
    await context.close();
  });

  it('sends a package to the WeCom robot as a news card, and the admin sees every push in 推送记录', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${packages.id}`);
    await page.getByTestId('commit-item').first().getByTestId('commit-item-menu').click();
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-send').click();
    await clickAtRest(page.getByTestId('send-message-ok'));
    await expectToast(page, PUSHED);
    const [message] = wecom.robotMessages;
    expect(message).toMatchObject({ key: robotKey, msgtype: 'news' });
    const body = JSON.stringify(message?.body);
    expect(body).toContain('2.0.1 (201)');
    expect(body).toContain(`${server.url}/package/${appPath}?id=`);
    await context.close();

    const admin = await newPage(browser, server.url);
    await signIn(admin.page, { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
    await admin.page.goto('/home/setting/delivery-log');
    await expect.poll(() => admin.page.getByTestId('delivery-status-sent').count()).toBe(3);
    expect(await admin.page.getByTestId('delivery-status-failed').count()).toBe(1);
    expect(await admin.page.getByTestId('delivery-log-page').innerText()).toContain('19021');
    await admin.page.screenshot({ path: '.tmp/e2e-delivery-log.png' });
    // No push is waiting: the pending filter says so and how to see the rest.
    await pickOption(admin.page, admin.page.getByTestId('delivery-status-filter'), '待发送');
    await expect.poll(() => admin.page.getByTestId('delivery-log-page').innerText()).toContain('没有该状态的推送记录');
    expect(await admin.page.getByTestId('delivery-log-page').innerText()).toContain('选择“全部状态”查看全部推送记录');
    await admin.context.close();
  });

  it('批量发送通知 previews a subject of 1,000 characters as the card sends it: cut to 200 characters with …', async () => {
    const long = `feat: 超长提交信息 ${'这是一段很长的说明文字，用来测试界面上的换行和截断。'.repeat(40)}`;
    const pushed = await fetch(custom.webhookUrl ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${custom.webhookSecret ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: 'lvl-long', time: Date.now() - 10_000, author: '策划小李', message: long }],
      }),
    });
    expect(pushed.status).toBe(200);
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${custom.id}`);
    await clickAtRest(
      page.getByTestId('commit-item').filter({ hasText: '超长提交信息' }).getByTestId('commit-item-menu'),
    );
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-batch').click();
    const line = page.getByTestId('message-preview-line').filter({ hasText: '超长提交信息' });
    await expect.poll(() => line.innerText()).toContain('… — 策划小李');
    const shown = await line.innerText();
    const subject = shown.slice(shown.indexOf('】') + 1, shown.lastIndexOf(' — '));
    expect(Array.from(subject)).toHaveLength(200);
    expect(subject.startsWith('超长提交信息 这是一段很长的说明文字')).toBe(true);
    const sent = lark.botMessages.length;
    await clickAtRest(page.getByTestId('send-logs-ok'));
    await expect.poll(() => lark.botMessages.length).toBe(sent + 1);
    // The card says the same: its type, then the subject cut where the preview cut it.
    expect(cardText(lark.botMessages[sent]?.card)).toContain(`【新增/变更】${subject}`);
    await context.close();
  });

  it('removes a stored Lark bot signing secret from the workflow modal (清除已保存的密钥, confirmed, then saved)', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${custom.id}`);
    await page.getByTestId('workflow-edit').click();
    const modal = page.getByTestId('workflow-modal');
    await clickAtRest(modal.getByTestId('workflow-robot-secret-clear'));
    await settled(page, '.ant-popconfirm').getByRole('button', { name: '清除密钥' }).click();
    await expect
      .poll(() => modal.getByTestId('workflow-robot-secret-clearing').innerText())
      .toContain('保存后将清除已保存的密钥');
    await clickAtRest(page.getByTestId('workflow-save'));
    await expectToast(page, '保存成功');
    await modal.waitFor({ state: 'hidden' });

    const api = createApi(server.url);
    const editor = await api.login(EDITOR.username, EDITOR.password);
    const rows = await api.call<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, editor);
    expect(rows.find((w) => w.id === custom.id)).toMatchObject({ hasRobotSecret: false, robotUrl: custom.robotUrl });
    // Opened again, the modal says no secret is stored and offers no removal.
    await page.getByTestId('workflow-edit').click();
    await expect.poll(() => modal.innerText()).toContain('只用于飞书自定义机器人，保存后不再显示');
    expect(await modal.getByTestId('workflow-robot-secret-clear').count()).toBe(0);
    await context.close();
  });
});
