import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import {
  callbackUrlOf,
  challengeOf,
  fakeDeviceAnswer,
} from '../apps/server/src/modules/device-enroll/testing/device-answer.ts';
import { clickAtRest } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { IPAD_UA, IPHONE_UA, launchBrowser, newPage } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const PHONE_UDID = '00008120-001C2D3E4F5A6B7C';

async function openInstallPage(page: Page, appPath: string) {
  await page.goto(`/package/${appPath}`);
  await page.getByTestId('install-password').fill('135790');
  await page.getByTestId('install-submit').click();
  await page.getByTestId('install-version').first().waitFor();
}

async function deviceAnswers(profileUrl: string, udid: string) {
  const mobileconfig = await (await fetch(profileUrl)).text();
  const answer = await fetch(callbackUrlOf(mobileconfig), {
    method: 'POST',
    headers: { 'content-type': 'application/pkcs7-signature' },
    body: new Uint8Array(fakeDeviceAnswer({ udid, challenge: challengeOf(mobileconfig), product: 'iPhone14,5' })),
    redirect: 'manual',
  });
  return answer.headers.get('location') ?? '';
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('self-service device registration from the install page', () => {
  let server: ServerProcess;
  let browser: Browser;
  let api: ReturnType<typeof createApi>;
  let admin = '';
  const appPath = 'enroll-demo';

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    api = createApi(server.url);
    admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '内测应用', path: appPath, appType: 'native' });
    await api.createUser(admin, 'tester', 'tester-pass-1', 20);
    await api.publishPackage(
      admin,
      appId,
      'adhoc.ipa',
      sampleIpa({ name: '内测应用', version: '2.1.0', build: '210' }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('offers 注册此设备 for the ad-hoc build on an iPad', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 }, IPAD_UA);
    await openInstallPage(page, appPath);
    const box = page.getByTestId('register-device-box');
    await box.waitFor();
    expect(await box.innerText()).toContain('已下载描述文件');
    expect(await page.getByTestId('register-device').innerText()).toContain('注册此设备');
    expect(await fitsWidth(page)).toBe(true);
    await context.close();
  });

  it('on a phone: downloads the profile, and after the device answers the result page shows its UDID and the install page says it needs re-signing', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 375, height: 812 }, IPHONE_UA);
    await openInstallPage(page, appPath);
    expect(await page.getByTestId('register-device').innerText()).toContain('注册此设备');
    expect(await fitsWidth(page)).toBe(true);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('register-device').click()]);
    expect(download.suggestedFilename()).toBe('register-device.mobileconfig');
    const profile = await fetch(download.url());
    expect(profile.headers.get('content-type')).toBe('application/x-apple-aspen-config');
    const mobileconfig = await profile.text();
    expect(mobileconfig).toContain('<string>Profile Service</string>');

    // What iOS does once the profile is installed: POST the signed attributes, then open the 301 target.
    const answer = await fetch(callbackUrlOf(mobileconfig), {
      method: 'POST',
      headers: { 'content-type': 'application/pkcs7-signature' },
      body: new Uint8Array(
        fakeDeviceAnswer({
          udid: PHONE_UDID.toLowerCase(),
          challenge: challengeOf(mobileconfig),
          product: 'iPhone15,2',
          version: '22C152',
        }),
      ),
      redirect: 'manual',
    });
    expect(answer.status).toBe(301);
    // The result page is part of the small install entry: none of the console's scripts load.
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(answer.headers.get('location') ?? '');
    await page.getByTestId('enroll-udid').waitFor();
    expect(scripts.filter((script) => /\/assets\/(main|vendor|react)-/.test(script))).toEqual([]);
    expect(await page.title()).toBe('设备注册结果 - 发布系统');
    expect(await page.getByTestId('enroll-udid').innerText()).toBe(PHONE_UDID);
    expect(await page.getByTestId('enroll-outcome').innerText()).toBe('设备注册成功');
    expect(await page.getByTestId('enroll-result-page').innerText()).toContain('iPhone15,2');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: '.tmp/e2e-device-enroll-result.png', fullPage: true });

    await page.getByTestId('enroll-back').click();
    await page.getByTestId('device-registered').waitFor();
    const notice = await page.getByTestId('device-registered').innerText();
    expect(notice).toContain(PHONE_UDID);
    expect(notice).toContain('重新签名');
    await page.screenshot({ path: '.tmp/e2e-device-enroll-mobile.png', fullPage: true });

    await context.close();

    // The admin sees the visitor's device in the device list, marked for confirmation.
    const desk = await newPage(browser, server.url);
    await desk.page.goto('/login');
    await desk.page.getByTestId('login-username').fill(E2E_ADMIN.username);
    await desk.page.getByTestId('login-password').fill(E2E_ADMIN.password);
    await desk.page.getByTestId('login-submit').click();
    await desk.page.waitForURL(/\/home\/app/);
    await desk.page.goto('/home/setting/udid');
    const row = desk.page.getByTestId('device-table').locator('tr', { hasText: PHONE_UDID });
    await row.waitFor();
    expect(await row.innerText()).toContain('iPhone15,2');
    expect(await row.getByTestId('device-review-status').innerText()).toBe('待确认');
    await desk.context.close();
  });

  it('a signed-in tester registers their own iPhone from the user menu', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 375, height: 812 });
    await page.goto('/login');
    await page.getByTestId('login-username').fill('tester');
    await page.getByTestId('login-password').fill('tester-pass-1');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/home\/app/);
    await page.getByTestId('user-menu').click();
    await clickAtRest(page.getByTestId('user-menu-device'));
    const link = page.getByTestId('my-device-link');
    await link.waitFor();
    expect(await page.getByTestId('my-device-qr').isVisible()).toBe(true);
    const location = await deviceAnswers((await link.getAttribute('href')) ?? '', '00008110-0011223344556677');
    await page.goto(location);
    await page.getByTestId('enroll-udid').waitFor();
    expect(await page.getByTestId('enroll-udid').innerText()).toBe('00008110-0011223344556677');
    const devices = await api.call<Array<{ udid: string; deviceName: string; createBy: string | null }>>(
      'GET',
      '/api/udids?pageNo=1&pageSize=20&keyword=0011223344556677',
      admin,
    );
    expect(devices).toEqual([expect.objectContaining({ deviceName: 'tester 的 iPhone14,5', createBy: 'tester' })]);
    await context.close();
  });
});
