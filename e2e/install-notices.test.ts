import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

// createApp gives every app this install password.
const PASSWORD = '135790';

describe('what the install page tells a visitor: a changed password, a missing version, a wrong link, an empty app, a lockout', () => {
  let server: ServerProcess;
  let browser: Browser;
  let api: ReturnType<typeof createApi>;
  let admin: string;
  let shopId: number;
  let latestId: number;
  let otherAppVersionId: number;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    api = createApi(server.url);
    admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    shopId = await api.createApp(admin, { appName: '商城', path: 'shop', appType: 'native' });
    await api.publishPackage(
      admin,
      shopId,
      'shop-1.apk',
      sampleApk({ label: '商城', packageName: 'com.example.shop', versionName: '1.0.0', versionCode: 100 }),
    );
    latestId = (
      await api.publishPackage(
        admin,
        shopId,
        'shop-2.apk',
        sampleApk({ label: '商城', packageName: 'com.example.shop', versionName: '2.0.0', versionCode: 200 }),
      )
    ).id;
    const other = await api.createApp(admin, { appName: '别的应用', path: 'other', appType: 'native' });
    otherAppVersionId = (
      await api.publishPackage(
        admin,
        other,
        'other.apk',
        sampleApk({ label: '别的应用', packageName: 'com.example.other', versionName: '9.0.0', versionCode: 900 }),
      )
    ).id;
    await api.createApp(admin, { appName: '空应用', path: 'empty', appType: 'native' });
    await api.createApp(admin, { appName: '锁定应用', path: 'locked', appType: 'native' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a visitor who unlocked the page is asked again after the admin changes the install password, and the new one opens it', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/package/shop');
    await page.getByTestId('install-password').fill(PASSWORD);
    await page.getByTestId('install-submit').click();
    await page.getByTestId('install-version').first().waitFor();
    // Remembered: the next visit opens without the password.
    await page.reload();
    await page.getByTestId('install-version').first().waitFor();
    expect(await page.getByTestId('install-gate').count()).toBe(0);

    await api.call('POST', '/api/app', admin, {
      appId: shopId,
      appName: '商城',
      appType: 'native',
      password: '864213',
      path: 'shop',
      distributeUsers: [],
    });
    await page.reload();
    const gate = page.getByTestId('install-gate');
    await gate.waitFor();
    await expect.poll(() => gate.innerText()).toContain('安装密码已更改，请输入新的安装密码');
    expect(await page.getByTestId('install-version').count()).toBe(0);
    // The old password no longer opens it; the new one does.
    await page.getByTestId('install-password').fill(PASSWORD);
    await page.getByTestId('install-submit').click();
    await expect.poll(() => gate.innerText()).toContain('安装密码错误');
    await page.getByTestId('install-password').fill('864213');
    await page.getByTestId('install-submit').click();
    await page.getByTestId('install-version').first().waitFor();
    await context.close();
    await api.call('POST', '/api/app', admin, {
      appId: shopId,
      appName: '商城',
      appType: 'native',
      password: PASSWORD,
      path: 'shop',
      distributeUsers: [],
    });
  });

  it('a link to a version that does not exist, or is another app’s, says so above the latest build', async () => {
    const { context, page } = await newPage(browser, server.url);
    for (const id of [999, otherAppVersionId]) {
      await page.goto(`/package/shop?id=${id}`);
      const password = page.getByTestId('install-password');
      await Promise.race([password.waitFor(), page.getByTestId('install-version').first().waitFor()]);
      if (await password.count()) {
        await password.fill(PASSWORD);
        await page.getByTestId('install-submit').click();
      }
      const notice = page.getByTestId('install-version-missing');
      await notice.waitFor();
      expect(await notice.innerText()).toBe('该版本不存在或已被删除，已为你显示最新版本');
      expect(await page.getByTestId('install-version').first().getAttribute('data-version-id')).toBe(String(latestId));
    }
    // A version that exists shows no notice.
    await page.goto(`/package/shop?id=${latestId}`);
    await page.getByTestId('install-version').first().waitFor();
    expect(await page.getByTestId('install-version-missing').count()).toBe(0);
    await context.close();
  });

  it('a wrong link says 下载地址不存在 once; an app without packages says what will appear there', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/package/nosuchapp');
    const missing = page.getByTestId('install-missing');
    await missing.waitFor();
    const text = await missing.innerText();
    expect(text.split('下载地址不存在').length - 1).toBe(1);
    expect(text).toContain('请向应用负责人索取最新的下载链接或二维码');

    await page.goto('/package/empty');
    await page.getByTestId('install-password').fill(PASSWORD);
    await page.getByTestId('install-submit').click();
    const empty = page.getByTestId('install-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain('暂无可安装的版本');
    expect(await empty.innerText()).toContain('应用发布安装包后，可以在这里下载安装');
    await context.close();
  });

  it('after ten wrong passwords the gate says how many minutes to wait', async () => {
    for (let i = 0; i < 10; i += 1) {
      const res = await fetch(`${server.url}/api/app_version?url=locked&password=999999`);
      expect(((await res.json()) as { msg: string }).msg).toBe('安装密码错误');
    }
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/package/locked');
    await page.getByTestId('install-password').fill(PASSWORD);
    await page.getByTestId('install-submit').click();
    await expect
      .poll(() => page.getByTestId('install-gate').innerText())
      .toContain('密码错误次数过多，请 15 分钟后再试');
    expect(await page.getByTestId('install-version').count()).toBe(0);
    await context.close();
  });
});
