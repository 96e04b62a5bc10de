import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickAtRest, expectToast, openDropdown, pickOption } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

async function pick(page: Page, select: string, appName: string) {
  await pickOption(page, page.getByTestId(select), appName);
  await page.keyboard.press('Escape');
  await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
}

describe('分发用户 settings page in a real browser', () => {
  let server: ServerProcess;
  let browser: Browser;
  let api: ReturnType<typeof createApi>;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    await api.createUser(admin, 'tester', 'tester-pass-1', 20);
    for (const [appName, path] of [
      ['星舰编辑', 'edit'],
      ['星舰下载', 'view'],
      ['星舰未分配', 'none'],
    ] as const)
      await api.createApp(admin, { appName, path });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The names of the apps the tester sees in the app list, and their permits from /api/user_apps. */
  async function testerSees() {
    const tester = await api.login('tester', 'tester-pass-1');
    const apps = await api.call<Array<{ appName: string }>>('GET', '/api/apps', tester);
    const permits = await api.call<Array<{ appName: string; permit: string }>>('GET', '/api/user_apps', tester);
    return {
      list: apps.map((a) => a.appName).sort(),
      permits: Object.fromEntries(permits.map((p) => [p.appName, p.permit])),
    };
  }

  it('at 768 px an admin gives a tester edit on one app and download on another, then takes one away', async () => {
    expect((await testerSees()).list).toEqual([]);
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1000 });
    await signIn(page);
    await page.goto('/home/setting/distribute-user');
    await expect.poll(() => page.getByTestId('distribute-intro').innerText()).toContain('管理员可以查看和编辑全部应用');
    await page.getByTestId('distribute-search').locator('input').fill('tester');
    await page.getByTestId('distribute-search').locator('input').press('Enter');
    const rows = page.getByTestId('distribute-table').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(1);
    const row = rows.first();
    await expect.poll(() => row.innerText()).toContain('未分配');

    await row.getByTestId('distribute-edit').click();
    await expect.poll(() => page.getByTestId('distribute-save').isEnabled()).toBe(true);
    await pick(page, 'distribute-edit-select', '星舰编辑');
    // An app picked as 可编辑 cannot also be 仅下载.
    const taken = (await openDropdown(page, page.getByTestId('distribute-view-select')))
      .locator('.ant-select-item-option')
      .filter({ hasText: '星舰编辑' });
    await expect.poll(() => taken.getAttribute('aria-disabled')).toBe('true');
    await pick(page, 'distribute-view-select', '星舰下载');
    await clickAtRest(page.getByTestId('distribute-save'));
    await expectToast(page, '保存成功');
    await page.getByTestId('distribute-modal').waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByTestId('distribute-edit-apps').innerText()).toBe('星舰编辑');
    await expect.poll(() => row.getByTestId('distribute-view-apps').innerText()).toBe('星舰下载');
    expect(await testerSees()).toEqual({
      list: ['星舰下载', '星舰编辑'],
      permits: { 星舰编辑: 'edit', 星舰下载: 'view' },
    });
    // Usable at 768 px: the page does not overflow the window sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The admin takes the download permit away again.
    await row.getByTestId('distribute-edit').click();
    const modal = page.getByTestId('distribute-modal');
    const viewTag = modal
      .getByTestId('distribute-view-select')
      .locator('.ant-select-selection-item')
      .filter({ hasText: '星舰下载' });
    await clickAtRest(viewTag.locator('.ant-select-selection-item-remove'));
    await expect.poll(() => viewTag.count()).toBe(0);
    await clickAtRest(page.getByTestId('distribute-save'));
    await expect.poll(() => row.getByTestId('distribute-view-apps').count()).toBe(0);
    await expect.poll(() => row.innerText()).toContain('未分配');
    expect(await testerSees()).toEqual({ list: ['星舰编辑'], permits: { 星舰编辑: 'edit' } });
    await context.close();
  });
});
