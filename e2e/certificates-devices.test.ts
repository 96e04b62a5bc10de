import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEcHarmonyIdentity } from '@release/inspect/testing/hap-ec-identity.ts';
import { makeAppleIdentity, makeP12, makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { clickAtRest, expectToast } from './helpers/antd.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import {
  certificateDay,
  deleteHarmonyCertificate,
  openHarmonyCertificates,
  uploadHarmonyCertificate,
} from './helpers/harmony-certificates.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

describe('certificates and device IDs in a real browser', () => {
  let server: ServerProcess;
  let browser: Browser;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-cert-'));
  const p12File = path.join(files, '开发证书.p12');
  const profileFile = path.join(files, 'StarFleet_Dev.mobileprovision');
  const devicesFile = path.join(files, 'devices.txt');
  const harmonyP12File = path.join(files, '鸿蒙发布证书.p12');
  const expires = new Date(Date.now() + 20 * 24 * 60 * 60 * 1000);

  beforeAll(async () => {
    const identity = makeAppleIdentity({
      teamId: 'STAR123456',
      teamName: '星际工作室',
      commonName: 'Apple Development: 李雷 (STAR123456)',
      notBefore: new Date(Date.now() - 24 * 60 * 60 * 1000),
      notAfter: new Date(Date.now() + 365 * 24 * 60 * 60 * 1000),
    });
    const apple = makeAppleIdentity({ commonName: 'Apple iPhone OS Provisioning Profile Signing' });
    fs.writeFileSync(p12File, makeP12(identity, 'star-pass', 'openssl-legacy'));
    fs.writeFileSync(
      profileFile,
      makeSignedProfile([identity], apple, {
        Name: 'StarFleet Development',
        TeamIdentifier: ['STAR123456'],
        ExpirationDate: expires,
        Entitlements: { 'application-identifier': 'STAR123456.com.studio.starfleet', 'get-task-allow': true },
      }),
    );
    fs.writeFileSync(
      devicesFile,
      [
        'Device ID\tDevice Name\tDevice Platform',
        '00008030-001A2B3C4D5E6F70\t测试 iPhone\tios',
        '00008101-000A1B2C3D4E5F6\t坏的 iPad\tios',
        'ABCDEF01-2345-6789-ABCD-EF0123456789\tBuild Mac\tmac',
      ].join('\n'),
    );
    // A HarmonyOS release identity as Huawei issues it (EC P-256), ending in 20 days like the iOS profile above.
    const harmony = makeEcHarmonyIdentity('星际工作室(1234567890),Release', {
      notBefore: new Date(Date.now() - 24 * 60 * 60 * 1000),
      notAfter: expires,
    });
    fs.writeFileSync(harmonyP12File, harmony.p12('鸿蒙密码'));
    server = await startServerProcess();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it('an admin uploads a certificate with its profile and sees it listed with its team and expiry', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page);
    await page.goto('/home/setting/certification');
    await page.getByTestId('cert-upload').click();
    const modal = page.getByTestId('cert-upload-modal');
    await modal.locator('input[type=file][accept=".p12,.pfx"]').setInputFiles(p12File);
    await modal.getByTestId('cert-password').fill('wrong-pass');
    await modal.locator('input[type=file][accept=".mobileprovision"]').setInputFiles(profileFile);
    await clickAtRest(page.getByTestId('cert-upload-submit'));
    await expectToast(page, '证书密码错误');
    await modal.getByTestId('cert-password').fill('star-pass');
    await clickAtRest(page.getByTestId('cert-upload-submit'));
    await expectToast(page, '上传成功');
    await modal.waitFor({ state: 'hidden' });

    const row = page
      .getByTestId('cert-table')
      .locator('tbody tr')
      .filter({ hasText: 'Apple Development: 李雷 (STAR123456)' });
    await expect.poll(() => row.getByTestId('cert-team').innerText()).toBe('星际工作室\nSTAR123456');
    await expect.poll(() => row.innerText()).toContain('com.studio.starfleet');
    await expect.poll(() => row.getByTestId('cert-profile').innerText()).toContain('StarFleet Development');
    const expiry = row.getByTestId('cert-expiry');
    expect(await expiry.getAttribute('data-status')).toBe('expiring');
    expect(await expiry.innerText()).toContain(`${certificateDay(expires)} 即将过期`);
    await context.close();
  });

  it('at 768 px an admin imports a device list with one bad line and sees its line number; nothing is imported until it is fixed', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1000 });
    await signIn(page);
    await page.goto('/home/setting/udid');
    await page.getByTestId('device-import').click();
    await page.locator('input[type=file][accept=".txt,.csv,.deviceids,.plist"]').setInputFiles(devicesFile);
    const errors = page.getByTestId('device-import-errors');
    await errors.waitFor();
    expect(await errors.getByTestId('device-import-error').allInnerTexts()).toEqual([
      '第 3 行：UDID 格式不正确（应为 40 位十六进制，或 8 位数字-16 位十六进制）：00008101-000A1B2C3D4E5F6',
    ]);
    expect(await page.getByTestId('device-table').locator('tbody tr.ant-table-row').count()).toBe(0);

    fs.writeFileSync(
      devicesFile,
      fs.readFileSync(devicesFile, 'utf8').replace('000A1B2C3D4E5F6\t', '000A1B2C3D4E5F60\t'),
    );
    await page.locator('input[type=file][accept=".txt,.csv,.deviceids,.plist"]').setInputFiles(devicesFile);
    await page.getByTestId('device-import-done').waitFor();
    await page.getByTestId('device-import-close').click();
    const rows = page.getByTestId('device-table').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await page.getByTestId('device-table').innerText()).toContain('00008101-000A1B2C3D4E5F60');
    // Usable at 768 px: the page does not overflow the window sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it('at 390 px an admin uploads the HarmonyOS signing .p12 under 鸿蒙签名证书, sees its expiry flagged, and deletes it', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
    await signIn(page);
    await openHarmonyCertificates(page);
    const row = await uploadHarmonyCertificate(page, harmonyP12File, {
      wrongPassword: '不对的密码',
      password: '鸿蒙密码',
    });
    expect(await row.innerText()).toContain('星际工作室(1234567890),Release');
    expect(await row.innerText()).toContain('EC');
    const expiry = row.getByTestId('cert-expiry');
    expect(await expiry.getAttribute('data-status')).toBe('expiring');
    expect(await expiry.innerText()).toContain(`${certificateDay(expires)} 即将过期`);
    // Usable at 390 px: the table scrolls inside itself, the page does not overflow sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await deleteHarmonyCertificate(page, row);
    await context.close();
  });
});
