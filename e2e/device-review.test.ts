import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppleAccountMessages } from '@release/contract';
import { startAppleFake, type AppleApiKey, type AppleFake } from '@release/fakes';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import {
  callbackUrlOf,
  challengeOf,
  fakeDeviceAnswer,
} from '../apps/server/src/modules/device-enroll/testing/device-answer.ts';
import { expectToast, pickOption, settled } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const TEAM = 'RVWTEAM123';
const VISITOR_PHONE = '00008120-001C2D3E4F5A6B7D';
const NEW_PHONE = '00008130-00AABBCCDDEEFF11';
const LATE_PHONE = '00008130-00AABBCCDDEEFF22';

describe('device review and Apple registration on the device list (768 px, Apple on the loopback fake)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let apple: AppleFake;
  let key: AppleApiKey;
  let admin = '';
  const appPath = 'review-demo';

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { token: admin },
  ) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as { code: number; msg: string; data: any };
  };

  /** An install page visitor (who knows the password) registers their phone through the Profile Service. */
  async function visitorRegisters(udid: string) {
    const page = (await call('GET', `/api/app_version?url=${appPath}&password=135790`, undefined, {})).data as {
      token: string;
      versions: Array<{ id: number }>;
    };
    const link = await call(
      'POST',
      '/api/device_enroll/install',
      { url: appPath, versionId: page.versions[0]?.id },
      { 'app-version-token': page.token },
    );
    const mobileconfig = await (await fetch(link.data.profileUrl as string)).text();
    const answer = await fetch(callbackUrlOf(mobileconfig), {
      method: 'POST',
      headers: { 'content-type': 'application/pkcs7-signature' },
      body: new Uint8Array(fakeDeviceAnswer({ udid, challenge: challengeOf(mobileconfig), product: 'iPhone15,2' })),
      redirect: 'manual',
    });
    expect(answer.status).toBe(301);
  }

  beforeAll(async () => {
    apple = await startAppleFake({
      teamId: TEAM,
      devices: [{ name: '老测试机', udid: '00008030-001A2B3C4D5E6F70', model: 'iPhone 13' }],
    });
    key = apple.addKey();
    server = await startServerProcess({ APPLE_API_BASE_URL: apple.url, NO_PROXY: '127.0.0.1,localhost' });
    browser = await launchBrowser();
    const api = createApi(server.url);
    admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '审核应用', path: appPath, appType: 'native' });
    await api.publishPackage(
      admin,
      appId,
      'adhoc.ipa',
      sampleIpa({ name: '审核应用', version: '3.0.0', build: '300' }),
    );
    const account = await call('POST', '/api/apple_account', {
      name: '测试团队',
      issuerId: key.issuerId,
      keyId: key.keyId,
      privateKey: key.p8,
    });
    expect(account.code).toBe(200);
    expect((await call('POST', '/api/apple_account/sync', { id: account.data.id })).code).toBe(200);
    await visitorRegisters(VISITOR_PHONE);
    expect(
      (await call('POST', '/api/udid', { udid: NEW_PHONE, deviceName: '新同事的 iPhone', platform: 'ios' })).code,
    ).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await apple?.close();
  });

  it("an admin confirms or rejects a visitor's phone, filters by state, and registers a confirmed phone with Apple in one click", async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1000 });
    await signIn(page);
    await page.goto('/home/setting/udid');
    const table = page.getByTestId('device-table');
    const rowOf = (udid: string) => table.locator('tbody tr', { hasText: udid });

    // The visitor's phone waits for 确认 and cannot be registered yet; the synced phone shows the account.
    const visitor = rowOf(VISITOR_PHONE);
    await expect.poll(() => visitor.getByTestId('device-review-status').innerText()).toBe('待确认');
    expect(await visitor.getByTestId('device-apple').innerText()).toMatch(/测试团队\s*未注册\s*确认后可注册/);
    expect(await visitor.getByTestId('device-apple-register').count()).toBe(0);
    await expect
      .poll(() => rowOf('00008030-001A2B3C4D5E6F70').getByTestId('device-apple').innerText())
      .toMatch(/测试团队\s*已注册/);

    // Filter by state.
    await pickOption(page, page.getByTestId('device-review-filter'), '待确认');
    await expect
      .poll(() => table.locator('tbody tr.ant-table-row').allInnerTexts())
      .toEqual([expect.stringContaining(VISITOR_PHONE)]);

    // 拒绝 (asked first): shown as 已拒绝, gone from the 待确认 filter.
    await visitor.getByTestId('device-reject').click();
    await settled(page, '.ant-popconfirm')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await expectToast(page, '已拒绝该设备');
    await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(0);
    await pickOption(page, page.getByTestId('device-review-filter'), '已拒绝');
    await expect.poll(() => rowOf(VISITOR_PHONE).getByTestId('device-review-status').innerText()).toBe('已拒绝');

    // 确认 after all: now it can be registered with Apple from its row.
    await rowOf(VISITOR_PHONE).getByTestId('device-confirm').click();
    await expectToast(page, '已确认该设备');
    await pickOption(page, page.getByTestId('device-review-filter'), '全部状态');
    await expect.poll(() => rowOf(VISITOR_PHONE).getByTestId('device-review-status').innerText()).toBe('已确认');
    await rowOf(VISITOR_PHONE).getByTestId('device-apple-register').click();
    await expectToast(page, '已注册到 Apple 账号「测试团队」');
    await expect.poll(() => rowOf(VISITOR_PHONE).getByTestId('device-apple').innerText()).toMatch(/测试团队\s*已注册/);
    expect(apple.state.devices.map((d) => d.udid)).toContain(VISITOR_PHONE);

    // An admin-added phone registers the same way.
    await rowOf(NEW_PHONE).getByTestId('device-apple-register').click();
    await expect.poll(() => rowOf(NEW_PHONE).getByTestId('device-apple').innerText()).toMatch(/测试团队\s*已注册/);
    expect(apple.state.devices.map((d) => d.udid)).toContain(NEW_PHONE);
    await page.screenshot({ path: '.tmp/e2e-device-review-768.png', fullPage: true });
    await context.close();
  });

  it('a key Apple no longer accepts is reported with what to check, and the phone stays 未注册', async () => {
    expect(
      (await call('POST', '/api/udid', { udid: LATE_PHONE, deviceName: '密钥撤销后', platform: 'ios' })).code,
    ).toBe(200);
    apple.revokeKey(key.keyId);
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1000 });
    await signIn(page);
    await page.goto('/home/setting/udid');
    const row = page.getByTestId('device-table').locator('tbody tr', { hasText: LATE_PHONE });
    await row.getByTestId('device-apple-register').click();
    await expectToast(page, AppleAccountMessages.notAuthorized);
    expect(await row.getByTestId('device-apple').innerText()).toMatch(/测试团队\s*未注册/);
    expect(apple.state.devices.map((d) => d.udid)).not.toContain(LATE_PHONE);
    await context.close();
  });
});
