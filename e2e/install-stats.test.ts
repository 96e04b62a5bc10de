import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { clickAtRest } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-S9180 Build/UP1A.231005.007) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36';

/**
 * Issue 20 in the browser: a signed-in tester downloads a build from the install page; the server counts it on the
 * download route, and the console's 安装包 row shows the count, the chart the day, and 谁装了 names the tester with the
 * device — at 390 and 1280 px.
 */
describe.each(e2eDatabases())('install statistics from the install page to the console (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  let admin: string;
  let appId: number;
  const api = () => createApi(server.url);

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    admin = await api().login(E2E_ADMIN.username, E2E_ADMIN.password);
    const tester = await api().createUser(admin, 'tester', 'tester-pass-1', 20);
    appId = await api().createApp(admin, { appName: '商城', path: 'shop', appType: 'native', viewUserIds: [tester] });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of sizesFor(database, [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])) {
    it(`a tester's download counts on the row and the chart, and 谁装了 names the tester (${viewport.width} px)`, async () => {
      const name = `2.${viewport.width}.0`;
      const build = await api().publishPackage(
        admin,
        appId,
        `shop-${name}.apk`,
        sampleApk({ versionName: name, versionCode: viewport.width }),
      );

      const desk = await newPage(browser, server.url, viewport);
      await signIn(desk.page);
      await desk.page.goto('/home/app/shop');
      const row = desk.page.locator(`[data-testid="version-row"][data-version-id="${build.id}"]`);
      const counts = row.getByTestId('version-installs');
      await expect.poll(() => counts.innerText()).toBe('暂无下载');
      const total = desk.page.getByTestId('install-stats-total');
      const before = Number(/(\d+) 次下载/.exec(await total.innerText())?.[1]);

      // The tester, signed in on a phone, downloads the newest build from the install page.
      const phone = await newPage(browser, server.url, { width: 390, height: 844 }, ANDROID_UA);
      await signIn(phone.page, 'tester', 'tester-pass-1');
      await phone.page.goto('/package/shop');
      const latest = phone.page.locator(`[data-testid="install-version"][data-version-id="${build.id}"]`).first();
      const [download] = await Promise.all([
        phone.page.waitForEvent('download'),
        latest.getByTestId('install-action').first().click(),
      ]);
      expect(download.suggestedFilename()).toBe(`shop-${name}.apk`);
      expect(await download.failure()).toBeNull();
      await phone.context.close();

      // The console shows it after 刷新.
      await desk.page.getByTestId('versions-refresh').click();
      await expect.poll(() => counts.innerText()).toBe('1 次下载');
      await expect.poll(async () => (await total.innerText()).startsWith(`共 ${before + 1} 次下载`)).toBe(true);
      expect(await desk.page.getByTestId('install-stats-bars').isVisible()).toBe(true);
      await clickAtRest(counts);
      const drawer = desk.page.getByTestId('version-holders');
      const holder = drawer.getByTestId('holder');
      await expect.poll(() => holder.count()).toBe(1);
      expect(await holder.getByTestId('holder-name').innerText()).toContain('tester');
      expect(await holder.getByTestId('holder-device').innerText()).toMatch(
        /^Android · Android 14 · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
      );
      expect(await drawer.getByTestId('holder-devices').innerText()).toBe('Android · Android 14：1 次');
      expect(await desk.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await desk.context.close();
      // Two browsers sign in and a build is published: more than the default minute on a loaded machine.
    }, 120_000);
  }

  it('a build nobody signed in has downloaded says how its holders come to be listed', async () => {
    const build = await api().publishPackage(
      admin,
      appId,
      'shop-3.0.0.apk',
      sampleApk({ versionName: '3.0.0', versionCode: 300 }),
    );
    const desk = await newPage(browser, server.url, { width: 1280, height: 800 });
    await signIn(desk.page);
    await desk.page.goto('/home/app/shop');
    const counts = desk.page
      .locator(`[data-testid="version-row"][data-version-id="${build.id}"]`)
      .getByTestId('version-installs');
    await expect.poll(() => counts.innerText()).toBe('暂无下载');
    await clickAtRest(counts);
    const empty = desk.page.getByTestId('version-holders').getByTestId('holders-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain('还没有登录用户下载或安装这个版本');
    expect(await empty.innerText()).toContain('未登录的下载只计数，不列名');
    await desk.context.close();
  });
});
