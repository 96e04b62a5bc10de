import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedbackMessages } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { gradientPng } from './helpers/png.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const PASSWORD = '135790';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-S9180 Build/UP1A.231005.007) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36';

describe.each(e2eDatabases())('tester feedback from the install page becomes a bug in the console (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  let versionId: number;

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '商城', path: 'shop', appType: 'native' });
    versionId = (
      await api.publishPackage(
        admin,
        appId,
        'shop.apk',
        sampleApk({ label: '商城', versionName: '2.0.0', versionCode: 200 }),
      )
    ).id;
    await api.call('POST', '/api/task_view', admin, { appId, taskViewEnabled: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a tester on a 390 px phone sends text and a screenshot; an editor finds the bug, with build, device and screenshot, at 1280 px', async () => {
    const phone = await newPage(browser, server.url, { width: 390, height: 844 }, ANDROID_UA);
    const page = phone.page;
    await page.goto('/package/shop');
    await page.getByTestId('install-password').fill(PASSWORD);
    await page.getByTestId('install-submit').click();
    await page.getByTestId('feedback-open').click();
    const form = page.getByTestId('feedback-form');
    await form.waitFor();
    expect(await form.innerText()).toContain('Android 2.0.0 (200)');
    // Nothing typed: told so, nothing sent.
    await page.getByTestId('feedback-send').click();
    await expect.poll(() => page.getByTestId('feedback-problem').innerText()).toBe(FeedbackMessages.textRequired);
    await page.getByTestId('feedback-text').fill('支付页白屏\n点击“去支付”后页面一直空白');
    await page.getByTestId('feedback-files').setInputFiles({
      name: '截屏.png',
      mimeType: 'image/png',
      buffer: gradientPng(40, 80),
    });
    await expect.poll(() => page.getByTestId('feedback-file-list').innerText()).toContain('截屏.png');
    expect(await page.getByTestId('feedback-device').innerText()).toContain('SM-S9180');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('feedback-send').click();
    await page.getByTestId('feedback-sent').waitFor();
    expect(await page.getByTestId('feedback-sent').innerText()).toContain(FeedbackMessages.sent);
    await phone.context.close();

    const desk = await newPage(browser, server.url, { width: 1280, height: 800 });
    await signIn(desk.page);
    await desk.page.goto('/home/app/shop');
    await desk.page.getByTestId('app-view-mode').getByText('任务视图').click();
    await desk.page.getByTestId('task-view').waitFor();
    await desk.page.getByTestId('task-tab-bug').click();
    const row = desk.page
      .getByTestId('task-table')
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: '[测试反馈] 支付页白屏' });
    await row.waitFor();
    await row.getByTestId('task-row-title').click();
    const drawer = desk.page.getByTestId('task-drawer');
    await drawer.waitFor();
    const description = await drawer.getByTestId('task-description').inputValue();
    expect(description).toContain('点击“去支付”后页面一直空白');
    expect(description).toContain(`版本：Android 2.0.0 (200)（编号 ${versionId}）`);
    expect(description).toContain('设备：SM-S9180 · Android 14');
    expect(await drawer.innerText()).toContain('截图1.png');
    await desk.context.close();
  });
});
