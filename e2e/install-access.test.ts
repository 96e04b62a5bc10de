import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';
import { toastText } from './helpers/task-view.ts';

const PASSWORD = '135790';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Waits until the page shows its versions or its password box, and says which. */
async function landing(page: Page): Promise<'versions' | 'gate'> {
  const versions = page.getByTestId('install-version').first();
  const gate = page.getByTestId('install-password');
  await Promise.race([versions.waitFor(), gate.waitFor()]);
  return (await versions.count()) > 0 ? 'versions' : 'gate';
}

describe.each(e2eDatabases())('who gets into the install page without typing the password (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  let api: ReturnType<typeof createApi>;
  let admin: string;

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    api = createApi(server.url);
    admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const editorId = await api.createUser(admin, 'editor', 'editor-pass-1', 20);
    const viewerId = await api.createUser(admin, 'viewer', 'viewer-pass-1', 20);
    await api.createUser(admin, 'outsider', 'outsider-pass-1', 20);
    const appId = await api.createApp(admin, {
      appName: '商城',
      path: 'shop',
      appType: 'native',
      editUserIds: [editorId],
      viewUserIds: [viewerId],
    });
    await api.publishPackage(
      admin,
      appId,
      'shop.apk',
      sampleApk({ label: '商城', versionName: '1.0.0', versionCode: 100 }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of sizesFor(database, [PHONE, DESKTOP])) {
    it(`signed-in members and admins open it directly, others are asked for the password (${viewport.width} px)`, async () => {
      for (const [user, password, expected] of [
        [E2E_ADMIN.username, E2E_ADMIN.password, 'versions'],
        ['viewer', 'viewer-pass-1', 'versions'],
        ['editor', 'editor-pass-1', 'versions'],
        ['outsider', 'outsider-pass-1', 'gate'],
      ] as const) {
        const { context, page } = await newPage(browser, server.url, viewport);
        await signIn(page, user, password);
        await page.goto('/package/shop');
        expect([user, await landing(page)]).toEqual([user, expected]);
        await context.close();
      }
      const { context, page } = await newPage(browser, server.url, viewport);
      await page.goto('/package/shop');
      expect(await landing(page)).toBe('gate');
      await context.close();
    });
  }

  it('an editor sees and copies the install password on the app page, and a new one ends the remembered passes', async () => {
    // A tester who unlocked the page earlier.
    const tester = await newPage(browser, server.url, PHONE);
    await tester.page.goto('/package/shop');
    await tester.page.getByTestId('install-password').fill(PASSWORD);
    await tester.page.getByTestId('install-submit').click();
    await tester.page.getByTestId('install-version').first().waitFor();

    const { context, page } = await newPage(browser, server.url, PHONE);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, 'editor', 'editor-pass-1');
    await page.goto('/home/app/shop');
    const password = page.getByTestId('install-access-password');
    await expect.poll(() => password.innerText().catch(() => '')).toBe(PASSWORD);
    await page.getByTestId('install-access-copy').click();
    await expect.poll(() => toastText(page)).toContain('已复制到剪切板');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(PASSWORD);

    await page.getByTestId('install-access-regenerate').click();
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => password.innerText()).not.toBe(PASSWORD);
    const fresh = await password.innerText();
    expect(fresh).toMatch(/^\d{6}$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await tester.page.reload();
    await expect
      .poll(() =>
        tester.page
          .getByTestId('install-gate')
          .innerText()
          .catch(() => ''),
      )
      .toContain('安装密码已更改，请输入新的安装密码');
    await tester.page.getByTestId('install-password').fill(fresh);
    await tester.page.getByTestId('install-submit').click();
    await tester.page.getByTestId('install-version').first().waitFor();
    await tester.context.close();
    await context.close();
  });

  it('a view user sees no install password on the app page', async () => {
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await signIn(page, 'viewer', 'viewer-pass-1');
    await page.goto('/home/app/shop');
    await page.getByTestId('app-title').waitFor();
    expect(await page.getByTestId('install-access').count()).toBe(0);
    await context.close();
  });

  it('the password-free link opens the page for anyone while an editor has it on, and says it is closed after', async () => {
    const { context, page } = await newPage(browser, server.url, DESKTOP);
    await signIn(page, 'editor', 'editor-pass-1');
    await page.goto('/home/app/shop');
    await page.getByTestId('install-access-public').click();
    const link = page.getByTestId('install-access-public-url');
    await link.waitFor();
    const url = await link.innerText();
    expect(url).toMatch(/\/package\/[A-Za-z]{4}$/);

    const visitor = await newPage(browser, server.url, PHONE);
    await visitor.page.goto(url);
    expect(await landing(visitor.page)).toBe('versions');
    expect(await visitor.page.getByTestId('install-action').first().innerText()).toContain('下载安装');

    await page.getByTestId('install-access-public').click();
    await link.waitFor({ state: 'detached' });
    await visitor.page.reload();
    const missing = visitor.page.getByTestId('install-missing');
    await missing.waitFor();
    expect(await missing.innerText()).toContain('该免密下载链接已关闭');
    await visitor.context.close();
    await context.close();
  });
});
