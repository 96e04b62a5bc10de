import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { clickAtRest } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

/** One package through /publish; answers once the page shows success or the bundle id refusal. */
async function publishFile(page: Page, appId: number, file: string): Promise<void> {
  await page.goto(`/publish?appId=${appId}`);
  await page.getByTestId('publish-dropzone').locator('input[type=file]').setInputFiles(file);
  await page.getByTestId('publish-submit').click();
  await page.locator('[data-testid=publish-success], [data-testid=publish-mismatch]').first().waitFor();
}

describe.each(e2eDatabases())(
  'bundle ids in a real browser: the refusal, 仍然发布, and the allowed list in 应用设置 (%s)',
  (database) => {
    let server: ServerProcess;
    let browser: Browser;
    const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-bundle-'));
    const apk = (name: string, packageName: string) => {
      const file = path.join(files, name);
      fs.writeFileSync(file, sampleApk({ label: '渠道包', packageName, versionName: '2.0.0' }));
      return file;
    };
    let appId = 0;

    beforeAll(async () => {
      server = await startServerProcess({}, { database });
      browser = await launchBrowser();
      const api = createApi(server.url);
      const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
      const editor = await api.createUser(admin, 'editor', 'editor-pass-1', 30);
      appId = await api.createApp(admin, {
        appName: '渠道应用',
        path: 'qudao',
        appType: 'native',
        editUserIds: [editor],
      });
      const editorToken = await api.login('editor', 'editor-pass-1');
      await api.publishPackage(editorToken, appId, 'main.apk', sampleApk({ packageName: 'com.studio.main' }));
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      fs.rmSync(files, { recursive: true, force: true });
    });

    it('an editor is told both ids, confirms, and the version is published without changing the app’s id', async () => {
      const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
      await signIn(page, 'editor', 'editor-pass-1');
      await publishFile(page, appId, apk('other.apk', 'com.studio.other'));
      await expect
        .poll(() => page.getByTestId('publish-mismatch-message').innerText())
        .toBe('包名不一致：该应用的 Android 包名为 com.studio.main，此安装包为 com.studio.other');
      await page.screenshot({ path: `.tmp/e2e-bundle-mismatch-390-${database}.png`, fullPage: true });
      await page.getByTestId('publish-confirm-bundle-id').click();
      await page.getByTestId('publish-success').waitFor();

      await page.goto('/home/app/qudao');
      await expect.poll(() => page.getByTestId('version-row').count()).toBe(2);
      expect(await page.getByTestId('app-bundle-ids').innerText()).toBe('Android：com.studio.main');
      await context.close();
    });

    it('an admin allows a flavor in 应用设置; the header lists it and its packages go through without asking', async () => {
      const { context, page } = await newPage(browser, server.url);
      await signIn(page);
      await page.goto('/home/app/qudao');
      await page.getByTestId('app-settings').click();
      const modal = page.getByTestId('app-settings-modal');
      const android = modal.getByTestId('app-bundle-ids-android');
      await android.click();
      await page.keyboard.type('com.studio.free');
      await page.keyboard.press('Enter');
      await modal.getByTestId('app-bundle-ids-ios').click();
      await page.keyboard.type('com/studio');
      await page.keyboard.press('Enter');
      await clickAtRest(page.getByTestId('app-save'));
      await expect.poll(() => modal.innerText()).toContain('包名格式不正确：com/studio');
      await modal.getByTestId('app-bundle-ids-ios').locator('.ant-select-selection-item-remove').first().click();
      await page.screenshot({ path: `.tmp/e2e-bundle-settings-1280-${database}.png` });
      await clickAtRest(page.getByTestId('app-save'));
      await modal.waitFor({ state: 'detached' });
      await expect
        .poll(() => page.getByTestId('app-bundle-ids').innerText())
        .toBe('Android：com.studio.main、com.studio.free');
      await page.screenshot({ path: `.tmp/e2e-bundle-header-1280-${database}.png` });
      await context.close();

      const editor = await newPage(browser, server.url);
      await signIn(editor.page, 'editor', 'editor-pass-1');
      await publishFile(editor.page, appId, apk('free.apk', 'com.studio.free'));
      expect(await editor.page.getByTestId('publish-success').isVisible()).toBe(true);
      await editor.context.close();
    });
  },
);
