import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { clickAtRest, expectToast } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

/**
 * Issue 20 in the browser: an editor removes a build from the app page's 安装包 list after a confirm that lists its
 * files and the space they free; the row goes, the package workflow's item stays and says 已删除, and the file is
 * deleted by the server's job (its download answers 404 soon after).
 */
describe.each(e2eDatabases())('removing a build from the console (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  let admin: string;
  let appId: number;
  const api = () => createApi(server.url);

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    admin = await api().login(E2E_ADMIN.username, E2E_ADMIN.password);
    appId = await api().createApp(admin, { appName: '商城', path: 'shop', appType: 'native' });
    await api().call('POST', '/api/workflow', admin, {
      appId,
      tabName: '测试包',
      contentType: 'package',
      packageType: 'apk',
    });
    // The first build's icon becomes the app icon: removing later builds takes their own icons with them.
    await api().publishPackage(admin, appId, 'shop-1.0.0.apk', sampleApk({ versionName: '1.0.0', versionCode: 100 }));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const versions = () =>
    api().call<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}&pageNo=1&pageSize=50`, admin);

  for (const viewport of sizesFor(database, [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])) {
    it(`confirms with the files and the space freed, then the build leaves the list and its item says 已删除 (${viewport.width} px)`, async () => {
      const name = `2.${viewport.width}.0`;
      const published = await api().publishPackage(
        admin,
        appId,
        `shop-${name}.apk`,
        sampleApk({ versionName: name, versionCode: viewport.width }),
      );
      const download = (await versions()).find((v) => v.id === published.id)?.cdnUrl ?? '';
      expect((await fetch(new URL(download, server.url))).status).toBe(200);

      const { context, page } = await newPage(browser, server.url, viewport);
      await signIn(page);
      await page.goto('/home/app/shop');
      const row = page.locator(`[data-testid="version-row"][data-version-id="${published.id}"]`);
      await clickAtRest(row.getByTestId('version-remove'));
      const modal = page.getByTestId('remove-version-modal');
      const files = modal.getByTestId('remove-version-file');
      await expect.poll(() => files.count()).toBe(2);
      expect(await files.nth(0).innerText()).toContain(`shop-${name}.apk`);
      expect(await files.nth(1).innerText()).toContain('图标');
      expect(await modal.getByTestId('remove-version-freed').innerText()).toMatch(/^可释放空间：\d+(\.\d+)? KB$/);
      expect(await modal.innerText()).toContain('1 条工作流记录会保留');
      // The confirm fits a phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.getByTestId('remove-version-ok').click();
      await expectToast(page, '已删除，文件正在后台清理');
      await row.waitFor({ state: 'detached' });
      expect((await versions()).map((v) => v.id)).not.toContain(published.id);
      // The server's job deletes the file.
      await expect.poll(async () => (await fetch(new URL(download, server.url))).status, { timeout: 15_000 }).toBe(404);

      // The package workflow still lists it, marked removed.
      await page.getByTestId('workflow-tab').filter({ hasText: '测试包' }).click();
      const item = page.getByTestId('commit-item').filter({ hasText: name });
      await expect.poll(() => item.count()).toBe(1);
      expect(await item.getByTestId('commit-package-version').innerText()).toContain('已删除');
      expect(await item.getByTestId('commit-package-download').count()).toBe(0);
      await context.close();
    });
  }

  it('a build removed in another window answers 该版本已删除 in the confirm instead of removing it twice', async () => {
    const published = await api().publishPackage(
      admin,
      appId,
      'shop-3.0.0.apk',
      sampleApk({ versionName: '3.0.0', versionCode: 300 }),
    );
    const { context, page } = await newPage(browser, server.url, { width: 1280, height: 800 });
    await signIn(page);
    await page.goto('/home/app/shop');
    const row = page.locator(`[data-testid="version-row"][data-version-id="${published.id}"]`);
    await row.waitFor();
    await api().call('POST', '/api/app_version/remove', admin, { id: published.id, appId });
    await clickAtRest(row.getByTestId('version-remove'));
    const error = page.getByTestId('remove-version-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('该版本已删除');
    expect(await page.getByTestId('remove-version-ok').isDisabled()).toBe(true);
    await context.close();
  });
});
