import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppleFake, type AppleApiKey, type AppleFake } from '@release/fakes';
import { makeAppleIdentity, makeP12, makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { sampleSignedIpa } from '../apps/server/src/signing/testing/ipa-builder.ts';
import { clickAtRest, expectToast, pickOption } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const TEAM = 'APPL123456';
const DAY = 24 * 60 * 60 * 1000;

describe('Apple accounts in a real browser (App Store Connect on the loopback fake)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let apple: AppleFake;
  let key: AppleApiKey;
  let appId: number;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-apple-'));

  beforeAll(async () => {
    const identity = makeAppleIdentity({
      teamId: TEAM,
      teamName: '苹果测试团队',
      commonName: `Apple Distribution: 苹果测试团队 (${TEAM})`,
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + 365 * DAY),
    });
    const signer = makeAppleIdentity({ commonName: 'Apple iPhone OS Provisioning Profile Signing' });
    apple = await startAppleFake({
      teamId: TEAM,
      devices: [{ name: '老测试机', udid: '00008030-001A2B3C4D5E6F70', model: 'iPhone 13' }],
    });
    apple.addBundleId({ identifier: 'com.studio.tester', name: 'Tester' });
    apple.addCertificate({ der: identity.der, certificateType: 'DISTRIBUTION' });
    key = apple.addKey();
    fs.writeFileSync(path.join(files, `AuthKey_${key.keyId}.p8`), key.p8);
    server = await startServerProcess({ APPLE_API_BASE_URL: apple.url, NO_PROXY: '127.0.0.1,localhost' });
    browser = await launchBrowser();

    // The distribution certificate is uploaded with an older profile that lacks the new phone.
    const form = new FormData();
    form.append('password', 'apple-pass');
    form.append('p12', new Blob([new Uint8Array(makeP12(identity, 'apple-pass'))]), 'dist.p12');
    const profile = makeSignedProfile([identity], signer, {
      Name: 'com.studio.tester AdHoc',
      TeamIdentifier: [TEAM],
      ExpirationDate: new Date(Date.now() + 200 * DAY),
      ProvisionedDevices: ['00008030-001A2B3C4D5E6F70'],
      Entitlements: { 'application-identifier': `${TEAM}.com.studio.tester`, 'get-task-allow': false },
    });
    form.append('profiles', new Blob([new Uint8Array(profile)]), 'old.mobileprovision');
    const api = createApi(server.url);
    const token = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const uploaded = (await (
      await fetch(`${server.url}/api/cert_upload`, { method: 'POST', headers: { token }, body: form })
    ).json()) as { code: number; msg: string };
    expect([uploaded.code, uploaded.msg]).toEqual([200, 'success']);
    // A new tester's phone in the local device list.
    const added = (await (
      await fetch(`${server.url}/api/udid`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify({ udid: '00008120-0011223344556677', deviceName: '新同事的 iPhone', platform: 'ios' }),
      })
    ).json()) as { code: number };
    expect(added.code).toBe(200);
    // An app with a build of that bundle id, for the one-button scenario.
    appId = await api.createApp(token, { appName: '测试应用', path: 'tstr', appType: 'native' });
    await api.publishPackage(
      token,
      appId,
      'Tester.ipa',
      sampleSignedIpa({ bundleId: 'com.studio.tester', noExtension: true }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await apple?.close();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it('an admin adds an account, syncs, registers a new phone at Apple and regenerates the profile that lists it (768 px)', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1000 });
    await signIn(page);

    await page.goto('/home/setting/apple_account');
    await page.getByTestId('apple-account-add').click();
    const modal = page.getByTestId('apple-account-modal');
    await modal.getByTestId('apple-account-name').fill('测试团队');
    await modal.getByTestId('apple-account-issuer').fill('11111111-2222-3333-4444-555555555555');
    await modal.getByTestId('apple-account-key-id').fill(key.keyId);
    await modal.locator('input[type=file]').setInputFiles(path.join(files, `AuthKey_${key.keyId}.p8`));
    await clickAtRest(page.getByTestId('apple-account-submit'));
    // Apple refuses a key with the wrong issuer: the admin is told what to check.
    await expectToast(page, 'Apple 拒绝了此 API 密钥');
    await modal.getByTestId('apple-account-issuer').fill(key.issuerId);
    await clickAtRest(page.getByTestId('apple-account-submit'));
    await expectToast(page, '添加成功');
    await modal.waitFor({ state: 'hidden' });

    const row = page.getByTestId('apple-account-table').locator('tbody tr').filter({ hasText: '测试团队' });
    await expect.poll(() => row.innerText()).toContain(TEAM);
    await row.getByTestId('apple-account-sync').click();
    await expectToast(page, '同步完成：设备 1 台，证书 1 个，Bundle ID 1 个，新加入设备列表 1 台');
    await expect.poll(() => row.getByTestId('apple-account-register').innerText()).toContain('（1）');

    await row.getByTestId('apple-account-register').click();
    await expect
      .poll(() => page.getByTestId('apple-register-device').allInnerTexts())
      .toEqual(['新同事的 iPhone（00008120-0011223344556677）']);
    await clickAtRest(page.getByTestId('apple-register-submit'));
    await page.getByTestId('apple-register-result').getByText('已注册 1 台设备').waitFor();
    expect(apple.state.devices.map((d) => d.udid)).toContain('00008120-0011223344556677');
    await clickAtRest(page.getByTestId('apple-register-submit'));

    await row.getByTestId('apple-account-profile').click();
    await expect.poll(() => page.getByTestId('apple-profile-modal').innerText()).toContain('com.studio.tester');
    await clickAtRest(page.getByTestId('apple-profile-submit'));
    await expectToast(page, '描述文件已生成，已保存到对应证书下');
    await page.getByTestId('apple-profile-modal').waitFor({ state: 'hidden' });

    await page.goto('/home/setting/certification');
    const cert = page
      .getByTestId('cert-table')
      .locator('tbody tr')
      .filter({ hasText: `Apple Distribution: 苹果测试团队 (${TEAM})` });
    await expect.poll(() => cert.getByTestId('cert-profile').innerText()).toContain('com.studio.tester AdHoc');
    await cert.locator('.ant-table-row-expand-icon').click();
    await expect.poll(() => page.getByTestId('cert-details').innerText()).toContain('2 台设备');
    const regenerated = apple.state.profiles[0];
    expect(regenerated?.deviceIds).toHaveLength(2);
    await expect.poll(() => page.getByTestId('cert-details').innerText()).toContain(regenerated?.uuid ?? 'missing');
    await context.close();
  });

  it("binds the app and adds another tester's phone to its build with one button: the build is re-signed", async () => {
    const api = createApi(server.url);
    const token = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    await fetch(`${server.url}/api/udid`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify({ udid: '00008130-00AABBCCDDEEFF00', deviceName: '测试组的 iPhone', platform: 'ios' }),
    });
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1000 });
    await signIn(page);
    await page.goto('/home/setting/apple_account');
    const row = page.getByTestId('apple-account-table').locator('tbody tr').filter({ hasText: '测试团队' });
    await row.getByTestId('apple-account-bind').click();
    await pickOption(page, page.getByTestId('apple-bind-modal').locator('.ant-select').first(), '测试应用');
    await clickAtRest(page.getByTestId('apple-bind-submit'));
    await expectToast(page, '绑定成功');
    await page.getByTestId('apple-bind-modal').waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByTestId('apple-account-bound').innerText()).toContain('应用 1');

    await row.getByTestId('apple-account-build-device').click();
    const modal = page.getByTestId('apple-build-device-modal');
    await pickOption(page, modal.getByTestId('apple-build-device-version'), '#1', { exact: false });
    await pickOption(page, modal.getByTestId('apple-build-device-device'), '测试组的 iPhone', { exact: false });
    await clickAtRest(page.getByTestId('apple-build-device-submit'));
    await expectToast(page, '1.2.3 重签名成功', { timeout: 60_000 });
    await modal.waitFor({ state: 'hidden' });
    expect(apple.state.devices.map((d) => d.udid)).toContain('00008130-00AABBCCDDEEFF00');
    const newest = apple.state.profiles.at(-1);
    expect(apple.state.devices.filter((d) => newest?.deviceIds.includes(d.id)).map((d) => d.udid)).toContain(
      '00008130-00AABBCCDDEEFF00',
    );
    await context.close();
  });
});
