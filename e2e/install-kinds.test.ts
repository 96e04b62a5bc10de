import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleAab, sampleApk, sampleMacZip } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const PASSWORD = '135790';

/** Each listed build as the user sees it: its action's label and file link, newest first. */
async function actions(page: Page): Promise<Array<{ id: number; text: string; href: string | null }>> {
  return page.getByTestId('install-version').evaluateAll((items) =>
    items.map((item) => {
      const action = item.querySelector<HTMLAnchorElement>('[data-testid="install-action"]');
      return {
        id: Number(item.getAttribute('data-version-id')),
        text: action?.innerText.trim() ?? '',
        href: action?.getAttribute('href') ?? null,
      };
    }),
  );
}

async function unlock(page: Page, route: string): Promise<void> {
  await page.goto(route);
  await page.getByTestId('install-password').fill(PASSWORD);
  await page.getByTestId('install-submit').click();
  await page.getByTestId('install-version').first().waitFor();
}

describe.each(e2eDatabases())('the install page offers only files a device installs (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '应用信息', path: 'appinfo', appType: 'native' });
    ids.apk = (
      await api.publishPackage(
        admin,
        appId,
        'appinfo-android.apk',
        sampleApk({ label: '应用信息', versionName: '1.0.0', versionCode: 100 }),
      )
    ).id;
    ids.aab = (
      await api.publishPackage(
        admin,
        appId,
        'appinfo-android.aab',
        sampleAab({ label: '应用信息', versionName: '1.1.0', versionCode: 110 }),
      )
    ).id;
    ids.mac = (
      await api.publishPackage(
        admin,
        appId,
        'appinfo-mac.zip',
        sampleMacZip({ name: '应用信息', version: '1.1.0', build: '110' }),
      )
    ).id;
    const bundleOnly = await api.createApp(admin, { appName: '只有 AAB', path: 'aabonly', appType: 'native' });
    ids.only = (await api.publishPackage(admin, bundleOnly, 'only.aab', sampleAab())).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of sizesFor(database, [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])) {
    it(`on an Android phone the newest apk is 下载安装 and the newer aab is only a file to download (${viewport.width} px)`, async () => {
      const { context, page } = await newPage(browser, server.url, viewport, ANDROID_UA);
      await unlock(page, '/android/appinfo');
      const shown = await actions(page);
      // The apk is the platform's main action although the aab is newer; the aab follows as a file.
      expect(shown.map((a) => [a.id, a.text])).toEqual([
        [ids.apk, '下载安装'],
        [ids.aab, '下载 AAB'],
      ]);
      expect(await page.getByTestId('install-bundle-hint').innerText()).toContain('手机不能直接安装');
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('install-version').nth(1).getByTestId('install-action').click(),
      ]);
      expect(file.suggestedFilename()).toBe('appinfo-android.aab');
      const [apk] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('install-action').first().click(),
      ]);
      expect(apk.suggestedFilename()).toBe('appinfo-android.apk');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await context.close();
    });
  }

  it("the console's version list tags the bundle AAB, not APK/Android", async () => {
    const { context, page } = await newPage(browser, server.url, { width: 1280, height: 800 });
    await signIn(page);
    await page.goto('/home/app/appinfo');
    const tagOf = (id: number | undefined) =>
      page.locator(`[data-testid="version-row"][data-version-id="${id}"] [data-package-kind]`).innerText();
    await page.locator(`[data-testid="version-row"][data-version-id="${ids.aab}"]`).waitFor();
    expect([await tagOf(ids.aab), await tagOf(ids.apk), await tagOf(ids.mac)]).toEqual(['AAB', 'APK/Android', 'MAC']);
    await context.close();
  });

  it('an app with only a bundle offers nothing to install and lists the bundle as a file', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 }, ANDROID_UA);
    await unlock(page, '/package/aabonly');
    expect(await page.getByText('暂无可安装的 Android 版本').isVisible()).toBe(true);
    expect((await actions(page)).map((a) => [a.id, a.text])).toEqual([[ids.only, '下载 AAB']]);
    await context.close();
  });

  it('the Mac tab downloads the zipped Mac app', async () => {
    const { context, page } = await newPage(browser, server.url);
    await unlock(page, '/package/appinfo');
    await page.getByTestId('install-platform').getByText('Mac').click();
    await expect.poll(async () => (await actions(page)).map((a) => [a.id, a.text])).toEqual([[ids.mac, '下载']]);
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('install-action').first().click(),
    ]);
    expect(zip.suggestedFilename()).toBe('appinfo-mac.zip');
    await context.close();
  });
});
