import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleHap, sampleHarmonyApp } from '@release/inspect/testing/hap-builder.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

/** HarmonyOS NEXT's browser (ArkWeb on a Mate phone). */
const HARMONY_UA =
  'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile';
const PASSWORD = '135790';
const PHONE = { width: 390, height: 844 };

async function actions(page: Page): Promise<Array<{ id: number; text: string }>> {
  return page.getByTestId('install-version').evaluateAll((items) =>
    items.map((item) => ({
      id: Number(item.getAttribute('data-version-id')),
      text: item.querySelector<HTMLElement>('[data-testid="install-action"]')?.innerText.trim() ?? '',
    })),
  );
}

describe.each(e2eDatabases())('HarmonyOS builds on the install page (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '鸿蒙演示', path: 'harmony', appType: 'native' });
    ids.apk = (await api.publishPackage(admin, appId, 'demo.apk', sampleApk({ label: '鸿蒙演示' }))).id;
    ids.packed = (
      await api.publishPackage(
        admin,
        appId,
        'demo-default-signed.app',
        sampleHarmonyApp({
          'entry-default-signed.hap': sampleHap({ versionName: '1.0.0', versionCode: 1000000, dependencies: ['lib'] }),
          'lib-default-signed.hsp': sampleHap({
            versionName: '1.0.0',
            versionCode: 1000000,
            moduleName: 'lib',
            moduleType: 'shared',
          }),
        }),
      )
    ).id;
    ids.hap = (
      await api.publishPackage(
        admin,
        appId,
        'entry-default-signed.hap',
        sampleHap({
          versionName: '1.0.1',
          versionCode: 1000001,
          debug: true,
          profile: { type: 'debug', devices: ['A'.repeat(64)] },
        }),
      )
    ).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a HarmonyOS phone opens on the HarmonyOS tab: the newest .hap to download, the packed .app as a file (390 px)', async () => {
    const { context, page } = await newPage(browser, server.url, PHONE, HARMONY_UA);
    await page.goto('/package/harmony');
    await page.getByTestId('install-password').fill(PASSWORD);
    await page.getByTestId('install-submit').click();
    await page.getByTestId('install-version').first().waitFor();
    const tabs = page.getByTestId('install-platform');
    expect(await tabs.locator('[aria-selected="true"]').innerText()).toBe('HarmonyOS');
    expect((await tabs.getByRole('tab').allInnerTexts()).map((t) => t.trim())).toEqual(['Android', 'HarmonyOS']);
    expect(await actions(page)).toEqual([
      { id: ids.hap, text: '下载' },
      { id: ids.packed, text: '下载 APP' },
    ]);
    expect(await page.getByTestId('install-bundle-hint').allInnerTexts()).toEqual([
      'APP 是上架应用市场用的包，手机不能直接安装，请安装 HAP',
    ]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('install-action').first().click(),
    ]);
    expect(download.suggestedFilename()).toBe('entry-default-signed.hap');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `.tmp/e2e-install-harmony-390-${database}.png`, fullPage: true });
    await context.close();
  });
});
