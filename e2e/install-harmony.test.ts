import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleHap, sampleHarmonyApp } from '@release/inspect/testing/hap-builder.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { HARMONY_UA, launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const PASSWORD = '135790';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

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
  let appId = 0;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-harmony-'));

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    appId = await api.createApp(admin, { appName: '鸿蒙演示', path: 'harmony', appType: 'native' });
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
    fs.rmSync(files, { recursive: true, force: true });
  });

  it('a HarmonyOS phone opens on the HarmonyOS tab: the newest .hap to download, the packed .app too (390 px)', async () => {
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
      // Its modules are stored whole in it: an enterprise .app is installed module by module, not a file to hand on.
      { id: ids.packed, text: '下载' },
    ]);
    expect(await page.getByTestId('install-bundle-hint').allInnerTexts()).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('install-action').first().click(),
    ]);
    expect(download.suggestedFilename()).toBe('entry-default-signed.hap');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `.tmp/e2e-install-harmony-390-${database}.png`, fullPage: true });
    await context.close();
  });

  it('modules picked together in the uploader become one debug version; a HarmonyOS phone gets its devices, modules and hdc command (390 px)', async () => {
    const profile = { type: 'debug' as const, devices: ['B'.repeat(64), 'C'.repeat(64)] };
    const modules = {
      'entry-default-signed.hap': sampleHap({
        versionName: '1.1.0',
        versionCode: 1010000,
        dependencies: ['lib'],
        profile,
      }),
      'lib-default-signed.hsp': sampleHap({
        versionName: '1.1.0',
        versionCode: 1010000,
        moduleName: 'lib',
        moduleType: 'shared',
        profile,
      }),
    };
    const paths = Object.entries(modules).map(([name, bytes]) => {
      fs.writeFileSync(path.join(files, name), bytes);
      return path.join(files, name);
    });
    const editor = await newPage(browser, server.url, PHONE);
    await signIn(editor.page);
    await editor.page.goto(`/publish?appId=${appId}`);
    await editor.page.getByTestId('publish-dropzone').locator('input[type=file]').setInputFiles(paths);
    expect(
      await editor.page.getByTestId('publish-dropzone').locator('.ant-upload-list-item-name').allInnerTexts(),
    ).toEqual(['entry-default-signed.hap', 'lib-default-signed.hsp']);
    await editor.page.getByTestId('publish-submit').click();
    await editor.page.getByTestId('publish-success').waitFor();
    expect(await editor.page.getByTestId('publish-success-version').innerText()).toContain('1.1.0');
    await editor.context.close();

    // The console flags the debug-signed build 调试证书 (the packed release build beside it is not flagged).
    const desk = await newPage(browser, server.url, DESKTOP);
    await signIn(desk.page);
    await desk.page.goto('/home/app/harmony');
    const rows = desk.page.getByTestId('version-row');
    await rows.filter({ hasText: '1.1.0' }).getByTestId('version-debug-signed').waitFor();
    expect(await rows.filter({ hasText: '1.1.0' }).getByTestId('version-debug-signed').innerText()).toBe('调试证书');
    expect(await rows.filter({ hasText: '1.0.0' }).getByTestId('version-debug-signed').count()).toBe(0);
    await desk.context.close();

    const { context, page } = await newPage(browser, server.url, PHONE, HARMONY_UA);
    await page.goto('/package/harmony');
    await page.getByTestId('install-password').fill(PASSWORD);
    await page.getByTestId('install-submit').click();
    const latest = page.getByTestId('install-version').first();
    await latest.waitFor();
    expect(await latest.getByTestId('install-version-title').innerText()).toContain('1.1.0');
    expect(await latest.getByTestId('version-debug-signed').innerText()).toBe('调试证书');
    expect(await latest.getByTestId('install-devices').innerText()).toContain(
      '调试版本，只能安装在已登记的 2 台设备上',
    );
    expect(await latest.getByTestId('install-hdc-command').innerText()).toBe(
      'hdc install -r entry-default-signed.hap lib-default-signed.hsp',
    );
    expect((await latest.getByTestId('install-module').allInnerTexts()).map((t) => t.trim())).toEqual([
      'entry-default-signed.hap',
      'lib-default-signed.hsp（共享）',
    ]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      latest.getByTestId('install-module').nth(1).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lib-default-signed.hsp');
    const saved = path.join(files, 'downloaded.hsp');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).equals(modules['lib-default-signed.hsp'])).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `.tmp/e2e-install-harmony-modules-390-${database}.png`, fullPage: true });
    await context.close();
  });
});
