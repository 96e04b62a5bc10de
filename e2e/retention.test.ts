import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRetention, AppVersionRow } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { clickAtRest, expectToast } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

/** Issue 20 in the browser: 保留规则 on the 安装包 list, its dry run before saving, at a phone's width and a desktop's. */
describe.each(e2eDatabases())('the retention rule of an app (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  let admin: string;
  let appId: number;
  const published: number[] = [];

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const viewerId = await api.createUser(admin, 'viewer', 'viewer-pass-1', 20);
    appId = await api.createApp(admin, { appName: '商城', path: 'shop', appType: 'native', viewUserIds: [viewerId] });
    for (const n of [1, 2, 3, 4])
      published.push(
        (await api.publishPackage(admin, appId, `shop-${n}.apk`, sampleApk({ versionName: `1.${n}` }))).id,
      );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of sizesFor(database, [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])) {
    it(`试运行 lists the builds a rule would remove and the space freed, nothing removed; 保存 keeps the rule (${viewport.width} px)`, async () => {
      const { context, page } = await newPage(browser, server.url, viewport);
      await signIn(page);
      await page.goto('/home/app/shop');
      await clickAtRest(page.getByTestId('versions-retention'));
      const modal = page.getByTestId('retention-modal');
      await modal.getByTestId('retention-keep-last').waitFor();
      await modal.getByTestId('retention-keep-last').fill('2');
      await modal.getByTestId('retention-keep-days').fill('0');
      await modal.getByTestId('retention-dry-run-button').click();
      const builds = modal.getByTestId('retention-dry-run-build');
      await expect.poll(() => builds.count()).toBe(2);
      expect(await builds.evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-version-id'))))).toEqual(
        published.slice(0, 2),
      );
      expect(await modal.getByTestId('retention-dry-run-summary').innerText()).toMatch(/会删除 2 个版本，释放 \d/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      // The switch turns the rule on or off from what is stored (the size run before on this server may have saved it).
      const wasEnabled = (await modal.getByTestId('retention-enabled').getAttribute('aria-checked')) === 'true';
      await modal.getByTestId('retention-enabled').click();
      await page.getByTestId('retention-save').click();
      await expectToast(page, '保留规则已保存');
      const api = createApi(server.url);
      expect(await api.call<AppRetention>('GET', `/api/app_retention?appId=${appId}`, admin)).toEqual({
        enabled: !wasEnabled,
        keepLast: 2,
        keepDays: 0,
        quotaMb: 0,
        isDefault: false,
      });
      // Looking removed nothing: the four builds are all listed.
      await expect.poll(() => page.getByTestId('version-row').count()).toBe(4);
      await context.close();
    });

    it(`the fields wait for the stored rule; a failed read says so and 重试 reads it again (${viewport.width} px)`, async () => {
      const { context, page } = await newPage(browser, server.url, viewport);
      await signIn(page);
      await page.goto('/home/app/shop');
      // The first read fails, the second is held back until the fields have been looked at.
      let reads = 0;
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/app_retention?*', async (route) => {
        reads += 1;
        if (reads === 1) return route.fulfill({ status: 500, body: 'down' });
        await held;
        return route.continue();
      });
      await clickAtRest(page.getByTestId('versions-retention'));
      const modal = page.getByTestId('retention-modal');
      await modal.getByTestId('retention-load-failed').waitFor();
      expect(await modal.getByTestId('retention-keep-last').isDisabled()).toBe(true);
      expect(await modal.getByTestId('retention-dry-run-button').isDisabled()).toBe(true);
      await modal
        .getByTestId('retention-load-failed')
        .getByRole('button', { name: /重\s?试/ })
        .click();
      await expect.poll(() => reads).toBe(2);
      expect(await modal.getByTestId('retention-keep-last').isDisabled()).toBe(true);
      release();
      // Read: the stored rule (keep the last 2, saved by the test before) fills the fields and they open.
      await expect.poll(() => modal.getByTestId('retention-keep-last').isDisabled()).toBe(false);
      expect(await modal.getByTestId('retention-keep-last').inputValue()).toBe('2');
      expect(await modal.getByTestId('retention-load-failed').count()).toBe(0);
      await page.unroute('**/api/app_retention?*');
      await context.close();
    });

    it(`标记保留 shows the 保留 mark on the build for everyone; only editors toggle it (${viewport.width} px)`, async () => {
      const api = createApi(server.url);
      const pinnedIds = async () =>
        (await api.call<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}`, admin))
          .filter((v) => v.pinned)
          .map((v) => v.id);
      const target = published[viewport.width === 390 ? 0 : 1] as number;
      const { context, page } = await newPage(browser, server.url, viewport);
      await signIn(page);
      await page.goto('/home/app/shop');
      const row = page.locator(`[data-testid="version-row"][data-version-id="${target}"]`);
      await clickAtRest(row.getByTestId('version-pin'));
      await expectToast(page, '已标记保留，保留规则不会删除这个版本');
      await row.getByTestId('version-pinned').waitFor();
      expect(await row.getByTestId('version-pin').innerText()).toContain('取消保留');
      expect(await pinnedIds()).toEqual([target]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await context.close();

      // A viewer sees the mark but cannot change it.
      const viewer = await newPage(browser, server.url, viewport);
      await signIn(viewer.page, 'viewer', 'viewer-pass-1');
      await viewer.page.goto('/home/app/shop');
      const seen = viewer.page.locator(`[data-testid="version-row"][data-version-id="${target}"]`);
      await seen.getByTestId('version-pinned').waitFor();
      expect(await viewer.page.getByTestId('version-pin').count()).toBe(0);
      await viewer.context.close();

      // Cleared again by the editor.
      const again = await newPage(browser, server.url, viewport);
      await signIn(again.page);
      await again.page.goto('/home/app/shop');
      const same = again.page.locator(`[data-testid="version-row"][data-version-id="${target}"]`);
      await clickAtRest(same.getByTestId('version-pin'));
      await expectToast(again.page, '已取消保留');
      await expect.poll(() => same.getByTestId('version-pinned').count()).toBe(0);
      expect(await pinnedIds()).toEqual([]);
      await again.context.close();
    });
  }
});
