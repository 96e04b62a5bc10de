import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickAtRest, expectToast, pickOption, settled, toasts } from './helpers/antd.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { gradientPng } from './helpers/png.ts';
import {
  BOB,
  EDITOR,
  VIEWER,
  signIn,
  startWorkflowWorld,
  todayAt,
  type WorkflowWorld,
} from './helpers/workflow-world.ts';

const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];

function localDate(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

async function tabNames(page: Page): Promise<string[]> {
  return page.getByTestId('workflow-tab').allInnerTexts();
}

async function messages(page: Page, scope = page.getByTestId('commit-list')): Promise<string[]> {
  return scope.getByTestId('commit-message').allInnerTexts();
}

describe('an editor follows a git repository in the workflow view', () => {
  let world: WorkflowWorld;
  let browser: Browser;
  const shots = path.resolve(import.meta.dirname, '../.tmp');

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    world = await startWorkflowWorld();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  it('adds a repository workflow in 添加工作流 and sees its commits on main, with the tag, as soon as it is saved', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('workflow-empty').getByTestId('workflow-add').click();
    const modal = page.getByTestId('workflow-modal');
    await clickAtRest(page.getByTestId('workflow-save'));
    await expect.poll(() => modal.innerText()).toContain('请输入工作流名称!');
    await modal.getByTestId('workflow-name').fill('客户端');
    await expect.poll(() => modal.innerText()).toContain('请输入仓库地址!');
    await modal.getByTestId('workflow-repo-path').fill(world.client.url);
    await modal.getByTestId('workflow-branches').fill('main');
    await clickAtRest(page.getByTestId('workflow-save'));

    const tab = page.getByTestId('workflow-tab').filter({ hasText: '客户端' });
    await tab.waitFor();
    // The new workflow is synced at once: main's two commits, newest first; dev's commit is not on main.
    await expect.poll(() => messages(page)).toEqual(['修复启动崩溃', '一键登录']);
    const fix = page.getByTestId('commit-item').filter({ hasText: '修复启动崩溃' });
    expect(await fix.getByTestId('commit-id').innerText()).toBe(
      world.client.git(['rev-parse', 'main']).trim().slice(0, 7),
    );
    expect(await fix.locator('[data-commit-type]').innerText()).toContain('Bug修改');
    expect(await fix.getByTestId('commit-tag').innerText()).toContain('v1.4.2');
    expect(await fix.getByTestId('commit-committer').innerText()).toContain('王小明');
    expect(await page.getByTestId('commit-day').first().innerText()).toContain('今天');
    await page.getByTestId('commit-end').waitFor();
    await page.screenshot({ path: path.join(shots, 'e2e-workflow-list.png') });
    await context.close();
  });

  it('shows the day in the calendar, opens it, adds a screenshot bound to the apk and views it in the lightbox', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('commit-item').first().waitFor();
    await page.getByTestId('view-toggle').getByText('日历').click();
    const today = localDate();
    const cell = page.locator(`[data-testid=calendar-day][data-date="${today}"]`);
    await expect.poll(() => cell.getAttribute('data-count')).toBe('2');
    // The month is the calendar's time window: the list's time filter is not offered here.
    expect(await page.getByTestId('filter-time').count()).toBe(0);
    await page.screenshot({ path: path.join(shots, 'e2e-workflow-calendar.png') });
    // A day without items warns instead of opening an empty drawer.
    const empty = page.locator(`[data-testid=calendar-day]:not([data-date="${today}"])`).first();
    const emptyDate = (await empty.getAttribute('data-date')) ?? '';
    await empty.click();
    await expectToast(page, `${WEEKDAYS[new Date(`${emptyDate}T12:00:00`).getDay()]} ${emptyDate} 没有提交记录`);
    expect(await page.getByTestId('day-drawer').count()).toBe(0);
    await cell.click();

    const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('day-drawer') });
    await expect
      .poll(() => drawer.locator('.ant-drawer-title').innerText())
      .toBe(`${WEEKDAYS[new Date().getDay()]} ${today}`);
    await expect.poll(() => messages(page, drawer)).toEqual(['修复启动崩溃', '一键登录']);

    const item = drawer.getByTestId('commit-item').filter({ hasText: '修复启动崩溃' });
    await clickAtRest(item.getByTestId('commit-item-menu'));
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-edit').click();
    const snapshot = page.getByTestId('snapshot-drawer');
    await snapshot.waitFor();
    // A text file renamed .png passes the page's check; the server refuses it by content and that is the one toast.
    const before = await toasts(page);
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/upload'));
    await snapshot
      .locator('input[type=file]')
      .setInputFiles({ name: 'crash-log.png', mimeType: 'image/png', buffer: Buffer.from('not an image, a text log') });
    expect((await refused).status()).toBe(400);
    await expect.poll(() => snapshot.getByTestId('snapshot-upload').locator('.ant-btn-loading').count()).toBe(0);
    expect((await toasts(page)).filter((toast) => !before.includes(toast))).toEqual(['必须上传图片或视频类型的文件']);
    expect(await snapshot.getByTestId('snapshot-media-item').count()).toBe(0);
    // A .txt is refused by the page itself, in the same words.
    await snapshot
      .locator('input[type=file]')
      .setInputFiles({ name: 'crash.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await expectToast(page, '必须上传图片或视频类型的文件');
    await snapshot
      .locator('input[type=file]')
      .setInputFiles({ name: 'crash.png', mimeType: 'image/png', buffer: gradientPng(320, 200) });
    await snapshot.getByTestId('snapshot-media-item').waitFor();
    await snapshot.getByTestId('snapshot-description').fill('低内存机型复现截图');
    // Only the non-empty list (APK) is offered, and its picker waits for its checkbox.
    expect(await snapshot.getByTestId('snapshot-version-check-ipa').count()).toBe(0);
    const apkPicker = snapshot.getByTestId('snapshot-version-apk');
    expect(await snapshot.locator('.ant-select-disabled').count()).toBe(1);
    await clickAtRest(snapshot.getByTestId('snapshot-version-check-apk'));
    await expect.poll(() => snapshot.locator('.ant-select-disabled').count()).toBe(0);
    await pickOption(page, apkPicker, world.apk.appVersion, { exact: false });
    // The chosen version shows in the picker before the drawer is saved.
    await expect
      .poll(() => apkPicker.locator('.ant-select-selection-item').allInnerTexts())
      .toEqual([expect.stringContaining(world.apk.appVersion)]);
    await clickAtRest(snapshot.getByTestId('snapshot-description'));
    await clickAtRest(page.getByTestId('snapshot-save'));
    await expectToast(page, '保存成功');
    await snapshot.waitFor({ state: 'hidden' });

    // The day's item now carries the screenshot, the description and the bound version.
    await expect.poll(() => item.getByTestId('media-thumb').count()).toBe(1);
    expect(await item.getByTestId('commit-description').innerText()).toBe('低内存机型复现截图');
    expect(await item.getByTestId('commit-bound-versions').innerText()).toContain(world.apk.appVersion);
    await item.getByTestId('media-thumb').click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.waitFor();
    await expect
      .poll(() => lightbox.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(320);
    const zoomIn = page.getByTestId('lightbox-zoom-in');
    const zoomOut = page.getByTestId('lightbox-zoom-out');
    await zoomIn.click();
    expect(await lightbox.getAttribute('data-scale')).toBe('1.48');
    // SPEC §9: up to 3 times the natural size, then zoom-in is disabled; out only while above 0.1 (0.52 - 0.48 is not).
    for (const scale of ['1.96', '2.44', '2.92', '3']) {
      await zoomIn.click();
      await expect.poll(() => lightbox.getAttribute('data-scale')).toBe(scale);
    }
    expect(await zoomIn.isDisabled()).toBe(true);
    await page.getByTestId('lightbox-reset').click();
    await zoomOut.click();
    await expect.poll(() => lightbox.getAttribute('data-scale')).toBe('0.52');
    expect(await zoomOut.isDisabled()).toBe(true);
    expect(await zoomIn.isDisabled()).toBe(false);
    await zoomIn.click();
    await zoomIn.click();
    await expect.poll(() => lightbox.getAttribute('data-scale')).toBe('1.48');
    await page.screenshot({ path: path.join(shots, 'e2e-workflow-lightbox.png') });
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
    await context.close();
  });

  it('at 390 px the compact month counts the day from one calendar read and opens it in the drawer', async () => {
    const { context, page } = await newPage(browser, world.server.url, { width: 390, height: 844 });
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('commit-item').first().waitFor();
    const reads: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/commit_log') || pathname.startsWith('/api/user_commit_log')) reads.push(pathname);
    });
    // On a phone the toggle shows icons, named by their titles.
    await page.getByTestId('view-toggle').locator('[title="日历"]').click();
    const today = localDate();
    const cell = page.locator(`.calendar-grid.is-compact [data-testid=calendar-day][data-date="${today}"]`);
    await expect.poll(() => cell.getAttribute('data-count')).toBe('2');
    // The month's counts came in one request; no item was read for them.
    expect(reads).toEqual(['/api/commit_log_calendar']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await cell.click();
    const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('day-drawer') });
    await expect.poll(() => messages(page, drawer)).toEqual(['修复启动崩溃', '一键登录']);
    // The day's items (and their metadata) are read when it opens.
    expect(reads.filter((read) => !read.endsWith('/metadata_list'))).toEqual([
      '/api/commit_log_calendar',
      '/api/commit_log_list',
    ]);
    await context.close();
  });

  it('a second repository workflow brings the 工作流汇总 tab, listing both without an action menu', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('workflow-tab').first().waitFor();
    expect(await tabNames(page)).toEqual(['客户端']);
    await page.getByTestId('workflow-add').click();
    const modal = page.getByTestId('workflow-modal');
    await modal.getByTestId('workflow-name').fill('服务端');
    await modal.getByTestId('workflow-repo-path').fill(world.backend.url);
    await clickAtRest(page.getByTestId('workflow-save'));
    await expect.poll(() => tabNames(page)).toEqual(['工作流汇总', '客户端', '服务端']);
    // The new tab is selected and synced.
    await expect.poll(() => messages(page)).toEqual(['订单接口']);

    await page.getByTestId('workflow-tab').filter({ hasText: '工作流汇总' }).click();
    await expect.poll(() => messages(page)).toEqual(['订单接口', '修复启动崩溃', '一键登录']);
    expect(await page.getByTestId('commit-source').allInnerTexts()).toEqual([
      '星际舰队 / 服务端',
      '星际舰队 / 客户端',
      '星际舰队 / 客户端',
    ]);
    expect(await page.getByTestId('commit-item-menu').count()).toBe(0);
    // The summary is not edited or deleted like a stored workflow.
    expect(await page.getByTestId('workflow-edit').count()).toBe(0);
    await context.close();
  });

  it('drags 服务端 before 客户端 after a long press, and the order survives a reload', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await expect.poll(() => tabNames(page)).toEqual(['工作流汇总', '客户端', '服务端']);
    const from = await page.getByTestId('workflow-tab').filter({ hasText: '服务端' }).boundingBox();
    const to = await page.getByTestId('workflow-tab').filter({ hasText: '客户端' }).boundingBox();
    if (!from || !to) throw new Error('tabs are not laid out');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    // Picked up only after the 500 ms press.
    await page.locator('[data-testid=workflow-tabs].is-dragging').waitFor();
    await page.mouse.move(to.x + 2, to.y + to.height / 2, { steps: 5 });
    await expect.poll(() => tabNames(page)).toEqual(['工作流汇总', '服务端', '客户端']);
    await page.mouse.up();
    await expectToast(page, '排序成功');
    await page.reload();
    await expect.poll(() => tabNames(page)).toEqual(['工作流汇总', '服务端', '客户端']);
    await context.close();
  });

  it('clicking a committer opens /trend/{user} with their items across apps', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('workflow-tab').filter({ hasText: '客户端' }).click();
    await expect.poll(() => messages(page)).toEqual(['修复启动崩溃', '一键登录']);
    await page.getByTestId('commit-item').filter({ hasText: '修复启动崩溃' }).getByTestId('commit-committer').click();
    await page.waitForURL(/\/trend\/%E7%8E%8B%E5%B0%8F%E6%98%8E$/);
    await expect.poll(() => page.getByTestId('trend-title').innerText()).toBe('王小明 的提交动态');
    await expect.poll(() => messages(page)).toEqual(['修复启动崩溃']);
    await page.getByTestId('filter-group-by-project').click();
    await expect.poll(() => page.getByTestId('commit-project').allInnerTexts()).toEqual(['星际舰队']);
    await context.close();
  });

  it('/commit shows one update item in full: message, media, description and bound version', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    const workflows = await world.api.call<Array<{ id: number; tabName: string }>>(
      'GET',
      `/api/workflow?appId=${world.appId}`,
      await world.api.login(EDITOR.username, EDITOR.password),
    );
    const clientId = workflows.find((w) => w.tabName === '客户端')?.id;
    const commitId = world.client.git(['rev-parse', 'main']).trim();
    await page.goto(`/commit?commitId=${commitId}&workflowId=${clientId}`);
    const detail = page.getByTestId('commit-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('commit-item').count()).toBe(1);
    expect(await detail.getByTestId('commit-message').innerText()).toBe('修复启动崩溃');
    expect(await detail.getByTestId('commit-body').innerText()).toContain('低内存机型上启动时崩溃');
    expect(await detail.getByTestId('commit-description').innerText()).toBe('低内存机型复现截图');
    expect(await detail.getByTestId('commit-bound-versions').innerText()).toContain(world.apk.appVersion);
    expect(await detail.getByTestId('media-thumb').count()).toBe(1);
    await page.screenshot({ path: path.join(shots, 'e2e-commit-detail.png') });
    // 在应用中查看 lands on the item's own tab of its app.
    await detail.getByTestId('commit-detail-app').click();
    await page.waitForURL(new RegExp(`/home/app/${world.appPath}\\?workflowId=${clientId}$`));
    await expect
      .poll(() => page.getByTestId('workflow-tabs').locator('.ant-tabs-tab-active').innerText())
      .toBe('客户端');
    await expect.poll(() => messages(page)).toEqual(['修复启动崩溃', '一键登录']);
    await context.close();
  });

  it('a viewer reads the same tabs and items but gets no action menu, no editing and no dragging', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, VIEWER);
    await page.goto(`/home/app/${world.appPath}`);
    await expect.poll(() => tabNames(page)).toEqual(['工作流汇总', '服务端', '客户端']);
    await page.getByTestId('workflow-tab').filter({ hasText: '客户端' }).click();
    await expect.poll(() => messages(page)).toEqual(['修复启动崩溃', '一键登录']);
    expect(await page.getByTestId('commit-item-menu').count()).toBe(0);
    for (const button of ['workflow-add', 'workflow-edit', 'workflow-delete', 'workflow-sync'])
      expect(await page.getByTestId(button).count()).toBe(0);
    expect(await page.locator('[data-testid=workflow-tabs].is-sortable').count()).toBe(0);
    await context.close();
  });

  it('显示过滤的日志 brings the hidden merge commit in among the others, newest first, and hides it again', async () => {
    // dev is merged into main: its commit joins main's history, the merge itself is kept but hidden.
    world.client.merge('dev', "Merge branch 'dev'", BOB, todayAt(120));
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('workflow-tab').filter({ hasText: '客户端' }).click();
    await clickAtRest(page.getByTestId('workflow-sync'));
    const shown = ['修复启动崩溃', 'dev 分支上的缓存', '一键登录'];
    await expect.poll(() => messages(page)).toEqual(shown);
    await page.getByTestId('filter-show-filtered').click();
    await expect.poll(() => messages(page)).toEqual(["Merge branch 'dev'", ...shown]);
    await expect(
      page.locator('.commit-item.is-filtered').getByTestId('commit-message').allInnerTexts(),
    ).resolves.toEqual(["Merge branch 'dev'"]);
    await page.getByTestId('filter-show-filtered').click();
    await expect.poll(() => messages(page)).toEqual(shown);
    await context.close();
  });

  it('two screenshots picked at once are saved in the order picked, though the second finishes uploading first', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('workflow-tab').filter({ hasText: '客户端' }).click();
    const item = page.getByTestId('commit-list').getByTestId('commit-item').filter({ hasText: '一键登录' });
    await clickAtRest(item.getByTestId('commit-item-menu'));
    await settled(page, '.ant-dropdown').getByTestId('commit-menu-edit').click();
    const snapshot = page.getByTestId('snapshot-drawer');
    await snapshot.waitFor();
    // wide.png's upload is held until tall.png's has been answered.
    let tallDone = (): void => undefined;
    const tallAnswered = new Promise<void>((resolve) => (tallDone = resolve));
    await page.route('**/api/upload', async (route) => {
      if ((route.request().postDataBuffer()?.toString('latin1') ?? '').includes('wide.png')) {
        await tallAnswered;
        await route.continue();
      } else {
        await route.fulfill({ response: await route.fetch() });
        tallDone();
      }
    });
    await snapshot.locator('input[type=file]').setInputFiles([
      { name: 'wide.png', mimeType: 'image/png', buffer: gradientPng(320, 200) },
      { name: 'tall.png', mimeType: 'image/png', buffer: gradientPng(200, 320) },
    ]);
    await expect.poll(() => snapshot.getByTestId('snapshot-media-item').count()).toBe(2);
    await clickAtRest(page.getByTestId('snapshot-save'));
    await expectToast(page, '保存成功');
    await snapshot.waitFor({ state: 'hidden' });
    const widths = () =>
      item
        .getByTestId('media-thumb')
        .locator('img')
        .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth));
    await expect.poll(widths).toEqual([320, 200]);
    await context.close();
  });
});
