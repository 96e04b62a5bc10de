import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetentionRule } from '@release/contract';
import { sampleApk, sampleMacZip } from '@release/inspect/testing/sample-packages.ts';
import { clickAtRest, expectToast } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

/** Issue 20 in the browser: 设置 → 存储 — the default retention rule, the space builds take, orphaned files. */
describe.each(e2eDatabases())('the storage page (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  let admin: string;

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const shop = await api.createApp(admin, { appName: '商城', path: 'shop', appType: 'native' });
    const maps = await api.createApp(admin, { appName: '地图', path: 'maps', appType: 'native' });
    await api.publishPackage(admin, shop, 'shop-1.apk', sampleApk({ versionName: '1.1' }));
    await api.publishPackage(admin, shop, 'shop.zip', sampleMacZip({ version: '1.0', build: '1' }));
    await api.publishPackage(admin, maps, 'maps-1.apk', sampleApk({ versionName: '2.1' }));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of sizesFor(database, [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])) {
    it(`shows the space per app and the largest builds, saves the default rule, and removes an orphaned file after a confirm (${viewport.width} px)`, async () => {
      // A file no build names, as an interrupted upload leaves one.
      const strayKey = `packages/2026/11/lost-${viewport.width}/stray.apk`;
      const stray = path.join(server.dataDir, 'blobs', 'objects', ...strayKey.split('/'));
      fs.mkdirSync(path.dirname(stray), { recursive: true });
      fs.writeFileSync(stray, Buffer.alloc(4096, 7));

      const { context, page } = await newPage(browser, server.url, viewport);
      await signIn(page);
      await page.goto('/home/setting/storage');
      await expect.poll(() => page.getByTestId('storage-app').count()).toBe(2);
      expect(await page.getByTestId('storage-builds').innerText()).toContain('3');
      expect(await page.getByTestId('storage-largest-build').count()).toBe(3);
      expect(await page.getByTestId('storage-week').count()).toBe(12);
      expect(await page.getByTestId('storage-store').innerText()).toContain('本地磁盘');

      // The default rule for apps without one.
      const keepLast = String(viewport.width === 390 ? 5 : 8);
      await page.getByTestId('storage-retention-keep-last').fill(keepLast);
      await clickAtRest(page.getByTestId('storage-retention-save'));
      await expectToast(page, '默认保留规则已保存');
      const api = createApi(server.url);
      expect(await api.call<RetentionRule>('GET', '/api/system_setting/retention_default', admin)).toMatchObject({
        keepLast: Number(keepLast),
      });

      await clickAtRest(page.getByTestId('storage-orphans-check'));
      const result = page.getByTestId('storage-orphans-result');
      await expect.poll(() => result.innerText()).toContain('发现 1 个孤立文件');
      expect(await page.getByTestId('storage-orphan').getAttribute('data-key')).toBe(strayKey);
      expect(fs.existsSync(stray)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await clickAtRest(page.getByTestId('storage-orphans-remove'));
      await clickAtRest(page.getByTestId('storage-orphans-confirm'));
      await expectToast(page, '已删除 1 个孤立文件');
      await expect.poll(() => result.innerText()).toContain('没有孤立文件');
      expect(fs.existsSync(stray)).toBe(false);
      // The builds' own files are untouched.
      expect(await page.getByTestId('storage-largest-build').count()).toBe(3);
      await context.close();
    });
  }

  it('a default rule that could not be read keeps its fields locked and says so; 重试 reads it (390 px)', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
    await signIn(page);
    let reads = 0;
    await page.route('**/api/system_setting/retention_default', (route) => {
      reads += 1;
      return reads === 1 ? route.fulfill({ status: 500, body: 'down' }) : route.continue();
    });
    await page.goto('/home/setting/storage');
    const failed = page.getByTestId('storage-retention-load-failed');
    await failed.waitFor();
    // Saving now would overwrite the stored rule with empty fields: it cannot be pressed.
    expect(await page.getByTestId('storage-retention-save').isDisabled()).toBe(true);
    await failed.getByRole('button', { name: /重\s?试/ }).click();
    await expect.poll(() => page.getByTestId('storage-retention-save').isDisabled()).toBe(false);
    const stored = await createApi(server.url).call<RetentionRule>(
      'GET',
      '/api/system_setting/retention_default',
      admin,
    );
    expect(await page.getByTestId('storage-retention-keep-last').inputValue()).toBe(String(stored.keepLast));
    expect(await failed.count()).toBe(0);
    await context.close();
  });
});
