import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';
import { expectToastShown, recordToasts } from './helpers/antd.ts';

const PASSWORD = '135790';

describe.each(e2eDatabases())(
  'a page per build: its own link and QR code from the console, its details for testers (%s)',
  (database) => {
    let server: ServerProcess;
    let browser: Browser;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      server = await startServerProcess({}, { database });
      browser = await launchBrowser();
      const api = createApi(server.url);
      const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
      const appId = await api.createApp(admin, { appName: '商城', path: 'shop', appType: 'native' });
      ids.ipa = (
        await api.publishPackage(admin, appId, 'shop.ipa', sampleIpa({ name: '商城', version: '3.1.0', build: '310' }))
      ).id;
      ids.html = (
        await api.publishPackage(
          admin,
          appId,
          'index.html',
          Buffer.from('<!doctype html><title>活动页</title><p>hi</p>'),
        )
      ).id;
      ids.apk = (
        await api.publishPackage(
          admin,
          appId,
          'shop.apk',
          sampleApk({ label: '商城', versionName: '2.0.0', versionCode: 200 }),
        )
      ).id;
      await api.call('POST', '/api/app_version', admin, { id: ids.ipa, appId, description: '修复登录问题' });
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    for (const viewport of sizesFor(database, [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ])) {
      it(`the console's version list gives each build its link and QR code; the type filters fit; the tab is titled after the app (${viewport.width} px)`, async () => {
        const { context, page } = await newPage(browser, server.url, viewport);
        await context.grantPermissions(['clipboard-read', 'clipboard-write']);
        await signIn(page);
        await page.goto('/home/app/shop');
        const row = page.locator(`[data-testid="version-row"][data-version-id="${ids.ipa}"]`);
        await row.waitFor();
        await expect.poll(() => page.title()).toBe('商城 - 发布系统');
        // A web build is named by its place among the uploads, not by its file (index.html).
        expect(
          await page
            .locator(`[data-testid="version-row"][data-version-id="${ids.html}"]`)
            .getByTestId('version-text')
            .innerText(),
        ).toBe('第 2 版');
        const filter = page.getByTestId('versions-type-filter');
        expect(await filter.evaluate((el) => el.scrollWidth <= (el.parentElement?.clientWidth ?? 0))).toBe(true);
        // Every option's name whole (no "And…").
        const cut = await filter
          .locator('.ant-segmented-item-label')
          .evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
        expect(cut).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

        await row.getByTestId('version-link').click();
        const modal = page.getByTestId('version-link-modal');
        await modal.waitFor();
        const url = `${server.url}/package/shop?id=${ids.ipa}`;
        expect(await modal.getByTestId('version-link-url').innerText()).toBe(url);
        expect(await modal.getByTestId('version-link-qr').getAttribute('data-qr-value')).toBe(url);
        await recordToasts(page);
        await modal.getByTestId('version-link-copy').click();
        await expectToastShown(page, '已复制到剪切板');
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
        await context.close();
      });

      it(`a build's link opens that build's page: its action, note, details, link and QR code (${viewport.width} px)`, async () => {
        const { context, page } = await newPage(browser, server.url, viewport);
        const url = `${server.url}/package/shop?id=${ids.ipa}`;
        await page.goto(url);
        await page.getByTestId('install-password').fill(PASSWORD);
        await page.getByTestId('install-submit').click();
        const build = page.getByTestId('install-build');
        await build.waitFor();
        expect(await page.getByTestId('install-version').getAttribute('data-version-id')).toBe(String(ids.ipa));
        expect(await page.getByTestId('install-version-title').innerText()).toBe('3.1.0 (310)');
        expect(await build.innerText()).toContain('修复登录问题');
        const details = await page.getByTestId('install-details').innerText();
        expect(details).toContain('com.example.demo');
        expect(details).toContain('内测 (Ad Hoc)');
        expect(details).toContain('shop.ipa');
        // No other builds, no platform switch: this build only.
        expect(await page.getByTestId('install-platform').count()).toBe(0);
        expect(await page.getByTestId('install-build-link').getAttribute('href')).toBe(url);
        expect(await page.getByTestId('install-qr').getAttribute('data-qr-value')).toBe(url);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        // 查看全部版本 goes back to the app's page.
        await page.getByTestId('install-all-versions').click();
        await page.getByTestId('install-platform').waitFor();
        expect(new URL(page.url()).search).toBe('');
        await context.close();
      });
    }

    it('an html build is named 第 N 版 on the install page, not index.html', async () => {
      const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
      await page.goto(`/package/shop?id=${ids.html}`);
      await page.getByTestId('install-password').fill(PASSWORD);
      await page.getByTestId('install-submit').click();
      await page.getByTestId('install-build').waitFor();
      expect(await page.getByTestId('install-version-title').innerText()).toBe('第 2 版');
      expect(await page.getByTestId('install-details').innerText()).toContain('活动页');
      await context.close();
    });
  },
);
