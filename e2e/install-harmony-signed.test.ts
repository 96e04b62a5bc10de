import { createHash, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyHarmonyManifest } from '@release/inspect';
import { makeEcHarmonyIdentity } from '@release/inspect/testing/hap-ec-identity.ts';
import { signIn } from './helpers/browser.ts';
import {
  certificateDay,
  deleteHarmonyCertificate,
  openHarmonyCertificates,
  uploadHarmonyCertificate,
} from './helpers/harmony-certificates.ts';
import {
  type HarmonySite,
  openSitePage,
  installFromStore,
  PHONE,
  publishThroughUploader,
  startHarmonySite,
} from './helpers/harmony-site.ts';
import { e2eDatabases, sizesFor } from './helpers/server-process.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const DESKTOP = { width: 1280, height: 800 };
const P12_PASSWORD = '鸿蒙证书密码2026';
const EDITOR = { username: 'editor', password: 'editor-pass-1' };
const STORE_LINK = 'store://enterprise/manifest?url=';
const MISSING =
  '企业内部分发需要签名后的安装清单：请管理员在「证书管理 › 鸿蒙签名证书」上传签此安装包的 .p12（服务器用它签名安装清单），或用华为的 manifest-sign-tool 签名 manifest.json5，作为附件随此版本上传';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Issue 21 "Manifest signing" in the browser, behind HTTPS (Debian's nginx): the admin uploads the HarmonyOS .p12 under
 * 证书管理 › 鸿蒙签名证书 (a wrong password first: 证书密码错误, nothing stored) and sees its subject and expiry; an
 * editor publishes an enterprise-signed entry module with no manifest; a HarmonyOS phone at 390 px gets 安装 as a
 * store:// link whose manifest, read over HTTPS, names the module's exact bytes and carries the server's signature,
 * which verifies with the key the admin's list shows. Once the admin deletes the certificate, the phone's page says
 * what to upload and the link it had is refused. The admin works at 390 px on one database and at 1280 on the other.
 */
describe.each(e2eDatabases())('the server signs a HarmonyOS manifest with the admin’s certificate (%s)', (database) => {
  let harmony: HarmonySite;
  let editorId = 0;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-harmony-signed-'));
  const p12File = path.join(files, '鸿蒙发布证书.p12');
  const validity = { notBefore: new Date(Date.now() - DAY_MS), notAfter: new Date(Date.now() + 365 * DAY_MS) };
  // Huawei issues HarmonyOS release certificates for EC P-256 keys; the module below is signed with this one.
  const identity = makeEcHarmonyIdentity('星际工作室(1234567890),Release', validity);

  beforeAll(async () => {
    fs.writeFileSync(p12File, identity.p12(P12_PASSWORD));
    harmony = await startHarmonySite(database);
    editorId = await harmony.api.createUser(harmony.admin, EDITOR.username, EDITOR.password, 30);
  }, 120_000);
  afterAll(async () => {
    await harmony?.stop();
    fs.rmSync(files, { recursive: true, force: true });
  });

  for (const adminWindow of sizesFor(database, [PHONE, DESKTOP])) {
    it(`the admin's .p12 (at ${adminWindow.width} px) signs the manifest a HarmonyOS phone installs from; deleted, the page says what to upload`, async () => {
      const appPath = `harmony-signed-${adminWindow.width}`;
      const appId = await harmony.api.createApp(harmony.admin, {
        appName: '鸿蒙商城',
        path: appPath,
        appType: 'native',
        editUserIds: [editorId],
      });

      const admin = await openSitePage(harmony, adminWindow);
      await signIn(admin.page);
      await openHarmonyCertificates(admin.page);
      const row = await uploadHarmonyCertificate(admin.page, p12File, {
        wrongPassword: '不是这个密码',
        password: P12_PASSWORD,
      });
      expect(await row.innerText()).toContain('星际工作室(1234567890),Release');
      expect(await row.getByTestId('cert-expiry').getAttribute('data-status')).toBe('valid');
      expect(await row.getByTestId('cert-expiry').innerText()).toContain(`${certificateDay(validity.notAfter)} 有效`);
      await row.locator('.ant-table-row-expand-icon').click();
      const details = admin.page.getByTestId('harmony-cert-details');
      await details.waitFor();
      expect(await details.innerText()).toContain(
        `${certificateDay(validity.notBefore)} ~ ${certificateDay(validity.notAfter)}`,
      );
      // The subject as RFC 4514 writes it (the comma inside the common name escaped).
      expect(await details.locator('th:has-text("主题") + td').innerText()).toBe(
        'C=CN, O=Example, CN=星际工作室(1234567890)\\,Release',
      );
      const listedKey = await details.locator('th:has-text("公钥（SPKI）") + td code').innerText();
      expect(listedKey).toBe(identity.publicKey);
      expect(await overflow(admin.page)).toBeLessThanOrEqual(0);
      await admin.page.screenshot({
        path: `.tmp/e2e-harmony-signed-certificates-${adminWindow.width}-${database}.png`,
      });

      // An editor publishes the enterprise-signed entry module alone: no manifest signed elsewhere comes with it.
      const hap = identity.hap({
        versionName: '3.0.0',
        versionCode: 3000000,
        profile: { type: 'release', distributionType: 'enterprise' },
      });
      const hapFile = path.join(files, 'entry-default-signed.hap');
      fs.writeFileSync(hapFile, hap);
      expect(await publishThroughUploader(harmony, appId, [hapFile], { user: EDITOR })).toContain('3.0.0');

      const phone = await installFromStore(harmony, appPath);
      const { app, sign } = phone.manifest;
      expect(app).toMatchObject({ bundleName: 'com.example.harmony', versionCode: 3000000, versionName: '3.0.0' });
      expect(app.modules.map((m) => [m.name, m.type, m.packageHash])).toEqual([['entry', 'entry', sha256(hap)]]);
      // The device checks `sign` with the key of the certificate that signed the module: the one the admin uploaded.
      const uploadedKey = createPublicKey({ key: Buffer.from(listedKey, 'base64'), format: 'der', type: 'spki' });
      expect(verifyHarmonyManifest(app, sign, uploadedKey)).toBe(true);
      expect(await overflow(phone.page)).toBeLessThanOrEqual(0);
      await phone.page.screenshot({ path: `.tmp/e2e-harmony-signed-install-${database}.png`, fullPage: true });

      await deleteHarmonyCertificate(admin.page, row);
      await admin.context.close();
      await phone.page.reload();
      const hint = phone.page.getByTestId('install-hint');
      await hint.waitFor();
      expect(await hint.innerText()).toContain('暂时不能在手机上直接安装');
      expect(await hint.innerText()).toContain(MISSING);
      const action = phone.page.getByTestId('install-action').first();
      expect((await action.getAttribute('href'))?.startsWith(STORE_LINK)).toBe(false);
      // The link the phone was given no longer yields a manifest.
      expect(await phone.page.evaluate(async (url) => (await fetch(url)).status, phone.manifestUrl)).toBe(404);
      await phone.page.screenshot({ path: `.tmp/e2e-harmony-signed-deleted-${database}.png`, fullPage: true });
      await phone.context.close();
    });
  }
});
