import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const FILE_OFF =
  '本服务器未开启 file:// 仓库（服务器本机上的仓库）：请改用 https://、http://、ssh:// 或 git@主机:路径 地址；确需读取本机仓库时，请管理员按 docs/configuration.md 设置 ALLOW_FILE_REPOSITORIES=true 后重启服务';

const HOST_REFUSED = '仓库地址的主机不在允许范围内：内网、本机地址需管理员在「设置 → 系统 → 仓库主机」中允许';

// A server on its default settings: ALLOW_FILE_REPOSITORIES is false.
describe.each(e2eDatabases())('the workflow modal on a server without file:// repositories (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  const appPath = 'shop';

  beforeAll(async () => {
    server = await startServerProcess({ SYNC_INTERVAL_SEC: '0' }, { database });
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
    await page.screenshot({ path: `.tmp/e2e-workflow-file-off-768-${database}.png` });
    // allInnerTexts does not wait: no toast at all is the expected case.
    expect((await page.locator('.ant-message').allInnerTexts()).join('\n')).not.toContain('创建成功');
    expect(await modal.isVisible()).toBe(true);

    // A loopback address is refused until an admin allows it under 设置 → 系统 → 仓库主机.
    await modal.getByTestId('workflow-repo-path').fill('http://127.0.0.1:9/shop.git');
    await page.getByTestId('workflow-save').click();
    await expect.poll(() => field.locator('.ant-form-item-explain').allInnerTexts()).toEqual([HOST_REFUSED]);

    const settings = await context.newPage();
    await settings.goto('/home/setting/system');
    const card = settings.getByTestId('repo-hosts-card');
    await card.getByTestId('repo-hosts-allow').fill('127.0.0.1\ngitlab.lan');
    await card.getByTestId('repo-hosts-deny').fill('10.0.0.1');
    await card.getByTestId('repo-hosts-save').click();
    await expect.poll(() => settings.locator('.ant-message').innerText()).toContain('保存成功');
    await settings.reload();
    await expect.poll(() => card.getByTestId('repo-hosts-allow').inputValue()).toBe('127.0.0.1\ngitlab.lan');
    for (const width of [390, 1280]) {
      await settings.setViewportSize({ width, height: 900 });
      await card.screenshot({ path: `.tmp/e2e-repo-hosts-${width}-${database}.png` });
      const box = await card.boundingBox();
      expect(box?.width ?? 0).toBeLessThanOrEqual(width);
    }
    await settings.close();

    // Allowed now: the http:// address is saved (nothing listens on port 9: its sync says it cannot connect, never leaves the machine).
    await page.getByTestId('workflow-save').click();
    await page.getByTestId('workflow-tab').filter({ hasText: '客户端主干' }).waitFor();
    expect(await page.getByTestId('workflow-tab').count()).toBe(1);
    await expect
      .poll(() => page.getByTestId('workflow-sync-error').allInnerTexts(), { timeout: 15_000 })
      .toEqual(['无法连接仓库地址，请检查地址和网络']);
    await context.close();
  });
});
