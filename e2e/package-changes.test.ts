import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk, type SampleApkOptions } from '@release/inspect/testing/sample-packages.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { e2eDatabases, sizesFor } from './helpers/server-process.ts';
import { EDITOR, signIn, startWorkflowWorld, VIEWER, type WorkflowWorld } from './helpers/workflow-world.ts';

const KB = 1024;

/**
 * Issue 19 in the browser, how the package itself changed: an editor sets the app's 安装包提醒; a build that grows by
 * more than half, adds the camera permission and is signed with another certificate is marked on its row, and 变更
 * shows its 安装包变化 — the biggest mover first, the new permission as sensitive, the certificate warning. An editor
 * changes the thresholds in their modal.
 */
describe.each(e2eDatabases())('安装包变化 of a build in the 变更 drawer (%s)', (database) => {
  let world: WorkflowWorld;
  let browser: Browser;
  let editor = '';
  let first = 0;
  let marked = 0;
  const apk = (versionName: string, versionCode: number, options: SampleApkOptions) =>
    sampleApk({ label: '星际舰队', packageName: 'com.studio.starfleet', versionName, versionCode, ...options });

  beforeAll(async () => {
    world = await startWorkflowWorld({ database });
    editor = await world.api.login(EDITOR.username, EDITOR.password);
    first = (
      await world.api.publishPackage(
        editor,
        world.appId,
        'StarFleet-1.5.0.apk',
        apk('1.5.0', 310, {
          permissions: ['android.permission.INTERNET'],
          extra: { 'lib/arm64-v8a/libgame.so': randomBytes(100 * KB) },
        }),
      )
    ).id;
    await world.api.call('POST', '/api/app_package_thresholds', editor, {
      appId: world.appId,
      sizePercent: 50,
      sizeMb: null,
      dangerousPermission: true,
      certificate: true,
      minOsRaised: false,
    });
    marked = (
      await world.api.publishPackage(
        editor,
        world.appId,
        'StarFleet-1.6.0.apk',
        apk('1.6.0', 320, {
          permissions: ['android.permission.INTERNET', 'android.permission.CAMERA'],
          otherSigner: true,
          extra: { 'lib/arm64-v8a/libgame.so': randomBytes(400 * KB) },
        }),
      )
    ).id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  it('an editor changes the app’s 安装包提醒 (1280 px)', async () => {
    const { context, page } = await newPage(browser, world.server.url, { width: 1280, height: 800 });
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('app-packages').waitFor();
    await page.getByTestId('versions-package-thresholds').click();
    const modal = page.getByTestId('package-thresholds-modal');
    const percent = modal.getByTestId('package-thresholds-percent');
    // The stored thresholds fill the form before it can be changed.
    await expect.poll(() => percent.inputValue()).toBe('50');
    await percent.fill('');
    await modal.getByTestId('package-thresholds-mb').fill('20');
    await modal.getByTestId('package-thresholds-minOsRaised').check();
    await modal.getByTestId('package-thresholds-save').click();
    await modal.waitFor({ state: 'hidden' });
    // Read until the save has landed: the dialog's element may count as hidden before its close has run.
    await expect
      .poll(() =>
        world.api.call<Record<string, unknown>>('GET', `/api/app_package_thresholds?appId=${world.appId}`, editor),
      )
      .toEqual({
        sizePercent: null,
        sizeMb: 20,
        dangerousPermission: true,
        certificate: true,
        minOsRaised: true,
      });
    await context.close();
  });

  for (const viewport of sizesFor(database, [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])) {
    it(`a viewer sees the mark and reads 安装包变化 of the newer build (${viewport.width} px)`, async () => {
      const { context, page } = await newPage(browser, world.server.url, viewport);
      await signIn(page, VIEWER);
      await page.goto(`/home/app/${world.appPath}`);
      const row = page.locator(`[data-testid="version-row"][data-version-id="${marked}"]`);
      expect(await row.getByTestId('version-package-alerts').innerText()).toBe('安装包提醒');
      const older = page.locator(`[data-testid="version-row"][data-version-id="${first}"]`);
      expect(await older.getByTestId('version-package-alerts').count()).toBe(0);
      await row.getByTestId('version-changes-open').click();
      const section = page.getByTestId('version-changes').getByTestId('package-changes');
      await section.getByTestId('package-size').waitFor();
      expect(await section.getByTestId('package-size').innerText()).toMatch(
        /^总大小\s+\d+ KB → \d+ KB（\+\d+ KB，\+\d+\.\d%）$/,
      );
      expect(await section.getByTestId('package-part').first().getAttribute('data-part')).toBe('native:arm64-v8a');
      expect(await section.getByTestId('package-part-delta').first().innerText()).toMatch(/^\+(29\d|30\d) KB$/);
      expect(await section.getByTestId('package-permissions-added').locator('.ant-tag').allInnerTexts()).toEqual([
        'CAMERA · 敏感',
      ]);
      expect(await section.getByTestId('package-certificate-changed').innerText()).toContain(
        '签名证书已更换：测试人员无法在旧版本上直接覆盖安装，需要先卸载旧版本。',
      );
      const alerts = await section.getByTestId('package-alerts').locator('li').allInnerTexts();
      expect(alerts).toEqual([
        expect.stringMatching(/^体积增加 \d+ KB（\+\d+\.\d%）$/),
        '新增敏感权限 CAMERA',
        '签名证书已更换，测试人员无法覆盖安装',
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await context.close();
    });
  }
});
