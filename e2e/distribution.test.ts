import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { clickAtRest, expectToast, pickOption } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home\/app/);
}

describe('distribution loop in a real browser', () => {
  let server: ServerProcess;
  let browser: Browser;
  let api: ReturnType<typeof createApi>;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-pkg-'));
  const ipaFile = path.join(files, 'StarFleet.ipa');
  const apkFile = path.join(files, 'StarFleet.apk');
  let appPath = '';
  let appPassword = '';

  beforeAll(async () => {
    fs.writeFileSync(
      ipaFile,
      sampleIpa({ name: '星际舰队', bundleId: 'com.studio.starfleet', version: '1.4.2', build: '302' }),
    );
    fs.writeFileSync(
      apkFile,
      sampleApk({ label: '星际舰队', packageName: 'com.studio.starfleet', versionName: '1.4.2', versionCode: 302 }),
    );
    server = await startServerProcess();
    browser = await launchBrowser();
    api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    await api.createUser(admin, 'editor', 'editor-pass-1', 30);
    await api.createUser(admin, 'tester', 'tester-pass-1', 20);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it('an admin creates an app in the 添加应用 modal', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await page.getByTestId('empty-add-app').click();
    const modal = page.getByTestId('add-app-modal');
    await modal.getByTestId('app-name').fill('星际舰队');
    appPath = await modal.getByTestId('app-path').inputValue();
    appPassword = await modal.getByTestId('app-password').inputValue();
    expect(appPath).toMatch(/^[a-z]{4}$/);
    expect(appPassword).toMatch(/^\d{6}$/);
    await pickOption(page, modal.getByTestId('app-edit-users'), 'editor');
    await page.keyboard.press('Escape');
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
    await pickOption(page, modal.getByTestId('app-view-users'), 'tester');
    await page.keyboard.press('Escape');
    await clickAtRest(page.getByTestId('app-save'));
    await page.waitForURL(new RegExp(`/home/app/${appPath}`));
    await expect.poll(() => page.getByTestId('app-list').innerText()).toContain('星际舰队');
    await context.close();
  });

  it('a tester subscribes, an editor publishes an ipa and an apk and sees the progress reach 100 %', async () => {
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = (await api.call<Array<{ appId: number; path: string }>>('GET', '/api/apps', admin)).find(
      (a) => a.path === appPath,
    )?.appId;
    const tester = await api.login('tester', 'tester-pass-1');
    await api.call('POST', '/api/app_collect', tester, { appIds: [appId], appCollectType: 'subscribe' });

    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'editor', 'editor-pass-1');
    for (const file of [ipaFile, apkFile]) {
      await page.goto(`/publish?appId=${appId}`);
      await page.getByTestId('publish-dropzone').locator('input[type=file]').setInputFiles(file);
      await page.getByTestId('publish-note').fill(`发布 ${path.basename(file)}`);
      await page.getByTestId('publish-submit').click();
      await page.getByTestId('publish-success').waitFor();
      expect(await page.getByTestId('publish-success-version').innerText()).toContain('1.4.2');
    }
    await page.goto(`/home/app/${appPath}`);
    const rows = page.getByTestId('version-row');
    await expect.poll(() => rows.count()).toBe(2);
    // Icons read from the packages themselves (CgBI PNG and apk mipmap) load as images.
    await expect
      .poll(() =>
        page
          .getByTestId('versions-table')
          .locator('img')
          .evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
      )
      .toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: '.tmp/e2e-app-page.png', fullPage: true });
    await context.close();
  });

  it('the publish progress bar goes to 100 % on success', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'editor', 'editor-pass-1');
    await page.goto('/publish');
    await page.getByTestId('publish-dropzone').locator('input[type=file]').setInputFiles(apkFile);
    await page.getByTestId('publish-submit').click();
    // The percent is seen at 100 before the page moves on, or the success page is already there.
    // count() answers at once: getAttribute would wait the page's whole timeout for a bar the success page has replaced.
    await expect
      .poll(() =>
        page.locator('[data-testid=publish-success], [data-testid=publish-progress][data-percent="100"]').count(),
      )
      .toBeGreaterThan(0);
    await context.close();
  });

  it('a 12 MB package (3 parts): the bar shows the bytes sent on the way, never goes back, and reaches 100 %', async () => {
    // An app of its own: the versions of 星际舰队 stay the ipa and apk the install page and the bell expect.
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '星际网页', path: 'sjwy' });
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    // Part 3 (the last, 2 MB) is held until the bar has shown a value between 0 and 80: the transfer is half done.
    let releasePart3 = (): void => undefined;
    const part3Held = new Promise<void>((resolve) => {
      releasePart3 = resolve;
    });
    await page.route(/\/.*[?&]partNo=3(&|$)/, async (route) => {
      await part3Held;
      await route.continue();
    });
    await page.goto(`/publish?appId=${appId}`);
    // Every value the bar takes, seen by the page itself (a poll could miss the short ones).
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { percentsSeen: number[] }).percentsSeen = seen;
      new MutationObserver(() => {
        const value = document.querySelector('[data-testid=publish-progress]')?.getAttribute('data-percent');
        if (value != null && Number(value) !== seen.at(-1)) seen.push(Number(value));
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-percent'],
      });
    });
    const percentsSeen = () => page.evaluate(() => (window as unknown as { percentsSeen: number[] }).percentsSeen);
    // From a file, not a buffer: 12 MB sent over the browser protocol as base64 outlasts the timeout on a busy machine.
    const webFile = path.join(files, 'StarFleet-web.html');
    fs.writeFileSync(
      webFile,
      Buffer.concat([
        Buffer.from('<!DOCTYPE html><html><head><title>星际舰队</title></head><body>'),
        Buffer.alloc(12 * 1024 * 1024, 'a'),
        Buffer.from('</body></html>'),
      ]),
    );
    await page.getByTestId('publish-dropzone').locator('input[type=file]').setInputFiles(webFile);
    await page.getByTestId('publish-submit').click();
    await expect.poll(async () => (await percentsSeen()).some((p) => p > 0 && p < 80)).toBe(true);
    expect(await page.getByTestId('publish-progress').getAttribute('data-phase')).toBe('uploading');
    releasePart3();
    await page.getByTestId('publish-success').waitFor();
    const seen = await percentsSeen();
    expect(seen.every((p, i) => i === 0 || p > (seen[i - 1] ?? 0))).toBe(true);
    expect(seen.at(-1)).toBe(100);
    await context.close();
  });

  it('a package or attachment name over 200 characters is refused on pick, saying the limit', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'editor', 'editor-pass-1');
    await page.goto('/publish');
    const longName = `${'星'.repeat(197)}.apk`;
    await page
      .getByTestId('publish-dropzone')
      .locator('input[type=file]')
      .setInputFiles({ name: longName, mimeType: 'application/octet-stream', buffer: fs.readFileSync(apkFile) });
    await expectToast(page, '文件名过长：最多 200 个字符，请重命名后再选择');
    expect(await page.getByTestId('publish-dropzone').locator('.ant-upload-list-item').count()).toBe(0);
    await page
      .getByTestId('publish-attachments')
      .locator('input[type=file]')
      .setInputFiles([
        { name: `${'a'.repeat(201)}.txt`, mimeType: 'text/plain', buffer: Buffer.from('x') },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') },
      ]);
    await expect
      .poll(() => page.getByTestId('publish-attachments').locator('.ant-upload-list-item').allInnerTexts())
      .toEqual(['notes.txt']);
    // A name of exactly 200 is taken.
    await page
      .getByTestId('publish-dropzone')
      .locator('input[type=file]')
      .setInputFiles({
        name: `${'星'.repeat(196)}.apk`,
        mimeType: 'application/octet-stream',
        buffer: fs.readFileSync(apkFile),
      });
    await expect.poll(() => page.getByTestId('publish-dropzone').locator('.ant-upload-list-item').count()).toBe(1);
    await context.close();
  });

  it('a tester on a phone is refused a wrong password, then sees the install link and the QR code', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
    await page.goto(`/package/${appPath}`);
    await page.getByTestId('install-password').fill(appPassword === '135790' ? '246810' : '135790');
    await page.getByTestId('install-submit').click();
    await expect.poll(() => page.getByTestId('install-gate').innerText()).toContain('安装密码错误');
    await page.getByTestId('install-password').fill(appPassword);
    await page.getByTestId('install-submit').click();
    await page.getByTestId('install-version').first().waitFor();
    const action = page.getByTestId('install-action').first();
    const href = await action.getAttribute('href');
    // The manifest for iOS, otherwise the counted download link, which leads to the package itself.
    expect(href).toMatch(/^itms-services:\/\/\?action=download-manifest&url=|\/api\/app_version\/download\?/);
    if (href && !href.startsWith('itms-services:')) {
      const download = await page.request.get(href);
      expect(download.status()).toBe(200);
      expect((await download.body()).subarray(0, 2).toString()).toBe('PK');
    }
    await page.getByTestId('install-qr').scrollIntoViewIfNeeded();
    expect(await page.getByTestId('install-qr').isVisible()).toBe(true);
    await page.screenshot({ path: '.tmp/e2e-install-mobile.png', fullPage: true });
    await context.close();
  });

  it('a tester who may only download is told on /publish to ask an admin for the edit permit (not to create an app)', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'tester', 'tester-pass-1');
    await page.goto('/publish');
    const empty = page.getByTestId('publish-no-apps');
    await expect.poll(() => empty.innerText()).toContain('请联系管理员为您添加应用的编辑权限');
    expect(await empty.innerText()).not.toContain('创建');
    await context.close();
  });

  it('at 768 px the install page is one column: the password card and the packages card span the width, like the QR card under them', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 });
    await page.goto(`/package/${appPath}`);
    const widthOf = async (testId: string) => (await page.getByTestId(testId).boundingBox())?.width ?? 0;
    await page.getByTestId('install-gate').waitFor();
    expect(await widthOf('install-page')).toBe(768);
    await expect.poll(() => widthOf('install-qr')).toBeGreaterThan(700);
    expect(await page.locator('.install-main').evaluate((el) => el.getBoundingClientRect().width)).toBe(
      await widthOf('install-qr'),
    );
    await page.getByTestId('install-password').fill(appPassword);
    await page.getByTestId('install-submit').click();
    await page.getByTestId('install-version').first().waitFor();
    expect(await page.locator('.install-main').evaluate((el) => el.getBoundingClientRect().width)).toBe(
      await widthOf('install-qr'),
    );
    await context.close();
  });

  it('the subscriber sees the new versions in the bell badge', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'tester', 'tester-pass-1');
    await expect.poll(() => page.getByTestId('notification-bell').innerText()).toMatch(/[23]/);
    await context.close();
  });
});
