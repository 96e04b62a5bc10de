import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const FILE_OFF = '本服务器未开启 file:// 仓库（服务器本机上的仓库）：请改用 https://、ssh:// 或 git@主机:路径 地址；确需读取本机仓库时，请管理员按 docs/configuration.md 设置 ALLOW_FILE_REPOSITORIES=true 后重启服务';

// A server on its default settings: ALLOW_FILE_REPOSITORIES is false.
describe('the workflow modal on a server without file:// repositories', () => {
  let server: ServerProcess;
  let browser: Browser;
  const appPath = 'shop';

  beforeAll(async () => {
    server = await startServerProcess({ SYNC_INTERVAL_SEC: '0' });
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    await api.createApp(admin, { appName: '星际商城', path: appPath });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('refuses a file:// address under 仓库地址, saying it is switched off here and how to enable it, and creates nothing', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 });
    await signIn(page);
    await page.goto(`/home/app/${appPath}`);
    await page.getByTestId('workflow-empty').getByTestId('workflow-add').click();
    const modal = page.getByTestId('workflow-modal');
    await modal.getByTestId('workflow-name').fill('客户端主干');
    await modal.getByTestId('workflow-repo-path').fill('file:///srv/git/shop.git');
    await page.getByTestId('workflow-save').click();
    const field = modal.locator('.ant-form-item').filter({ has: page.getByTestId('workflow-repo-path') });
    await expect.poll(() => field.locator('.ant-form-item-explain').allInnerTexts()).toEqual([FILE_OFF]);
    await field.locator('.ant-form-item-explain-error').waitFor({ state: 'visible' });
    await page.screenshot({ path: '.tmp/e2e-workflow-file-off-768.png' });
    // allInnerTexts does not wait: no toast at all is the expected case.
    expect((await page.locator('.ant-message').allInnerTexts()).join('\n')).not.toContain('创建成功');
    expect(await modal.isVisible()).toBe(true);

    // An address of an accepted form is saved (a loopback port nothing listens on: its sync fails, never leaves the machine).
    await modal.getByTestId('workflow-repo-path').fill('https://127.0.0.1:9/shop.git');
    await expect.poll(() => field.locator('.ant-form-item-explain').count()).toBe(0);
    await page.getByTestId('workflow-save').click();
    await page.getByTestId('workflow-tab').filter({ hasText: '客户端主干' }).waitFor();
    expect(await page.getByTestId('workflow-tab').count()).toBe(1);
    await context.close();
  });
});
