import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { e2eDatabases } from './helpers/server-process.ts';
import { ALICE, BOB, EDITOR, startWorkflowWorld, todayAt, type WorkflowWorld } from './helpers/workflow-world.ts';

const PHONE = { width: 390, height: 844 };
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

/**
 * Issue 19 on a tester's phone: build 1 published and downloaded from the install page; two commits, build 2; two
 * more, build 3. Back on the page, the tester reads exactly the four commits since the build they have under
 * 自上次安装以来的变化; a phone that never downloaded reads 本版本更新 (the two since build 2).
 */
describe.each(e2eDatabases())('自上次安装以来的变化 on the install page (%s)', (database) => {
  let world: WorkflowWorld;
  let browser: Browser;
  let tester: { context: { close(): Promise<void> }; page: Page };

  /** Opens the install page (the password once per phone: the page remembers its pass) and waits for the build offered. */
  const openPage = async (page: Page) => {
    await page.goto(`/package/${world.appPath}`);
    const password = page.getByTestId('install-password');
    const offered = page.getByTestId('install-action').first();
    await Promise.race([password.waitFor(), offered.waitFor()]);
    if (await password.isVisible()) {
      await password.fill('135790');
      await page.getByTestId('install-submit').click();
    }
    await offered.waitFor();
    return page.getByTestId('install-changes');
  };

  beforeAll(async () => {
    world = await startWorkflowWorld({ database });
    browser = await launchBrowser();
    const editor = await world.api.login(EDITOR.username, EDITOR.password);
    const workflowId = (
      await world.api.call<{ id: number }>('POST', '/api/workflow', editor, {
        appId: world.appId,
        tabName: '客户端',
        contentType: 'default',
        repoType: 'git',
        repoPath: world.client.url,
        defaultBranch: 'main',
      })
    ).id;
    const sync = () => world.api.call('POST', `/api/workflow/sync?id=${workflowId}`, editor, {});
    const publish = async (versionName: string, versionCode: number) => {
      await sync();
      const apk = sampleApk({ label: '星际舰队', packageName: 'com.studio.starfleet', versionName, versionCode });
      await world.api.publishPackage(editor, world.appId, `StarFleet-${versionName}.apk`, apk, {
        commit: world.client.head(),
      });
    };
    await publish('1.5.0', 310);
    // Build 1 offered on the tester's phone: 下载安装 downloads it (and the server counts it for this phone).
    tester = await newPage(browser, world.server.url, PHONE, ANDROID_UA);
    await openPage(tester.page);
    const [download] = await Promise.all([
      tester.page.waitForEvent('download'),
      tester.page.getByTestId('install-action').first().click(),
    ]);
    expect(download.suggestedFilename()).toBe('StarFleet-1.5.0.apk');
    world.client.commit({ message: 'feat: 新的关卡编辑器', author: ALICE, time: todayAt(120), files: { 'e.ts': '1' } });
    world.client.commit({ message: 'fix: 修复切后台闪退', author: BOB, time: todayAt(150), files: { 'b.ts': '2' } });
    await publish('1.6.0', 320);
    world.client.commit({ message: 'feat: 好友排行榜', author: ALICE, time: todayAt(180), files: { 'r.ts': '1' } });
    world.client.commit({ message: 'perf: 加快启动', author: BOB, time: todayAt(210), files: { 's.ts': '2' } });
    await publish('1.7.0', 330);
  });
  afterAll(async () => {
    await tester?.context.close();
    await browser?.close();
    await world?.cleanup();
  });

  it('the returning tester reads exactly the commits since the build they downloaded (390 px)', async () => {
    const changes = await openPage(tester.page);
    await changes.waitFor();
    expect(await changes.getByTestId('install-changes-title').innerText()).toBe('自上次安装以来的变化');
    expect(await changes.getByTestId('install-changes-since').innerText()).toBe('相对你上次下载的 1.5.0 (310)');
    expect(await changes.getByTestId('install-change').allInnerTexts()).toEqual([
      'perf: 加快启动 · 王小明',
      'feat: 好友排行榜 · alice',
      'fix: 修复切后台闪退 · 王小明',
      'feat: 新的关卡编辑器 · alice',
    ]);
    expect(await tester.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('a phone that never downloaded reads 本版本更新: the commits since the build before (390 px)', async () => {
    const { context, page } = await newPage(browser, world.server.url, PHONE, ANDROID_UA);
    const changes = await openPage(page);
    await changes.waitFor();
    expect(await changes.getByTestId('install-changes-title').innerText()).toBe('本版本更新');
    expect(await changes.getByTestId('install-changes-since').innerText()).toBe('相对上一版本 1.6.0 (320)');
    expect(await changes.getByTestId('install-change').allInnerTexts()).toEqual([
      'perf: 加快启动 · 王小明',
      'feat: 好友排行榜 · alice',
    ]);
    await context.close();
  });
});
