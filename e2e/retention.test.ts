import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRetention } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { clickAtRest, expectToast } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

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
    appId = await api.createApp(admin, { appName: '商城', path: 'shop', appType: 'native' });
    for (const n of [1, 2, 3, 4])
      published.push(
        (await api.publishPackage(admin, appId, `shop-${n}.apk`, sampleApk({ versionName: `1.${n}` }))).id,
      );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
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
      await modal.getByTestId('retention-enabled').click();
      await page.getByTestId('retention-save').click();
      await expectToast(page, '保留规则已保存');
      const api = createApi(server.url);
      expect(await api.call<AppRetention>('GET', `/api/app_retention?appId=${appId}`, admin)).toEqual({
        enabled: viewport.width === 390,
        keepLast: 2,
        keepDays: 0,
        isDefault: false,
      });
      // Looking removed nothing: the four builds are all listed.
      await expect.poll(() => page.getByTestId('version-row').count()).toBe(4);
      await context.close();
    });
  }
});
