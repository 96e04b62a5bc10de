import { createHash, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signHarmonyManifest, verifyHarmonyManifest } from '@release/inspect';
import { harmonyDeveloperKey, sampleHap } from '@release/inspect/testing/hap-builder.ts';
import { createApi } from './helpers/api.ts';
import { HARMONY_UA, launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { freePort, SITE_NAME, startNginx, type Nginx } from './helpers/nginx.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const PASSWORD = '135790';
const PHONE = { width: 390, height: 844 };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Issue 21's enterprise install, end to end behind HTTPS (Debian's nginx, docs/deploy/nginx.conf): an editor publishes
 * an entry module and its shared module, signed for enterprise distribution, with the manifest signed elsewhere as an
 * attachment; a HarmonyOS phone at 390 px gets 安装 as a `store://enterprise/manifest?url=` link whose manifest is
 * served over HTTPS, lists both modules with URLs that download, over HTTPS, exactly the bytes their SHA-256 names,
 * and still carries a signature that verifies with the modules' key.
 */
describe.each(e2eDatabases())('HarmonyOS enterprise install through store:// (%s)', (database) => {
  let server: ServerProcess;
  let site: Nginx;
  let browser: Browser;
  let appId = 0;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-harmony-store-'));
  const profile = { type: 'release' as const, distributionType: 'enterprise' };
  const modules = {
    'entry-default-signed.hap': sampleHap({
      versionName: '2.0.0',
      versionCode: 2000000,
      dependencies: ['lib'],
      profile,
    }),
    'lib-default-signed.hsp': sampleHap({
      versionName: '2.0.0',
      versionCode: 2000000,
      moduleName: 'lib',
      moduleType: 'shared',
      profile,
    }),
  };
  /** The manifest as hpack writes it for these modules (its URLs on another host), signed as manifest-sign-tool does. */
  const signedManifest = () => {
    const app = {
      bundleName: 'com.example.harmony',
      bundleType: 'app',
      versionCode: 2000000,
      versionName: '2.0.0',
      label: '鸿蒙演示',
      deployDomain: 'cdn.example',
      icons: { normal: 'https://cdn.example/icon.png', large: 'https://cdn.example/icon.png' },
      minAPIVersion: '5.0.5(17)',
      targetAPIVersion: '5.0.5(17)',
      modules: Object.entries(modules).map(([fileName, bytes], index) => ({
        name: index === 0 ? 'entry' : 'lib',
        type: index === 0 ? 'entry' : 'share',
        deviceTypes: ['phone', 'tablet'],
        packageUrl: `https://cdn.example/${fileName}`,
        packageHash: sha256(bytes),
      })),
    };
    return JSON.stringify({ app, sign: signHarmonyManifest(app, harmonyDeveloperKey()) });
  };

  beforeAll(async () => {
    const serverPort = await freePort();
    site = await startNginx(`127.0.0.1:${serverPort}`);
    server = await startServerProcess(
      { PORT: String(serverPort), PUBLIC_URL: site.httpsUrl, TRUST_PROXY: '127.0.0.1' },
      { database },
    );
    browser = await launchBrowser([`--host-resolver-rules=MAP ${SITE_NAME} 127.0.0.1`]);
    // The app is made on the server itself; everything a user does goes through nginx.
    const api = createApi(`http://127.0.0.1:${serverPort}`);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    appId = await api.createApp(admin, { appName: '鸿蒙演示', path: 'harmony-store', appType: 'native' });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await site?.stop();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it('published with its signed manifest, the build installs from an https manifest whose modules match their hashes (390 px)', async () => {
    const paths = Object.entries(modules).map(([name, bytes]) => {
      fs.writeFileSync(path.join(files, name), bytes);
      return path.join(files, name);
    });
    const manifestFile = path.join(files, 'manifest.json5');
    fs.writeFileSync(manifestFile, signedManifest());
    const editor = await newPage(browser, site.httpsUrl, PHONE, undefined, true);
    await signIn(editor.page);
    await editor.page.goto(`/publish?appId=${appId}`);
    await editor.page.getByTestId('publish-dropzone').locator('input[type=file]').setInputFiles(paths);
    await editor.page.getByTestId('publish-attachments').locator('input[type=file]').setInputFiles(manifestFile);
    await editor.page.getByTestId('publish-submit').click();
    await editor.page.getByTestId('publish-success').waitFor();
    expect(await editor.page.getByTestId('publish-success-version').innerText()).toContain('2.0.0');
    await editor.context.close();

    const { context, page } = await newPage(browser, site.httpsUrl, PHONE, HARMONY_UA, true);
    await page.goto('/package/harmony-store');
    await page.getByTestId('install-password').fill(PASSWORD);
    await page.getByTestId('install-submit').click();
    const action = page.getByTestId('install-action').first();
    await action.waitFor();
    expect(await action.innerText()).toContain('安装');
    const href = (await action.getAttribute('href')) ?? '';
    expect(href.startsWith('store://enterprise/manifest?url=')).toBe(true);
    const manifestUrl = decodeURIComponent(href.slice('store://enterprise/manifest?url='.length));
    expect(manifestUrl.startsWith(`${site.httpsUrl}/`)).toBe(true);

    // What the phone does next, from the page over HTTPS: read the manifest, then each module it names.
    const served = await page.evaluate(async (url) => {
      const hex = (buffer: ArrayBuffer) =>
        [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
      const manifest = await (await fetch(url)).json();
      const downloads = [];
      for (const module of manifest.app.modules) {
        const response = await fetch(module.packageUrl);
        downloads.push({
          status: response.status,
          sha256: hex(await crypto.subtle.digest('SHA-256', await response.arrayBuffer())),
        });
      }
      return { manifest, downloads };
    }, manifestUrl);
    const { app, sign } = served.manifest;
    expect(app).toMatchObject({
      bundleName: 'com.example.harmony',
      versionCode: 2000000,
      versionName: '2.0.0',
      deployDomain: new URL(site.httpsUrl).host,
    });
    expect(app.icons.normal.startsWith(`${site.httpsUrl}/`)).toBe(true);
    expect(
      app.modules.map((m: { name: string; type: string; packageHash: string }) => [m.name, m.type, m.packageHash]),
    ).toEqual([
      ['entry', 'entry', sha256(modules['entry-default-signed.hap'])],
      ['lib', 'share', sha256(modules['lib-default-signed.hsp'])],
    ]);
    expect(app.modules.every((m: { packageUrl: string }) => m.packageUrl.startsWith(`${site.httpsUrl}/`))).toBe(true);
    expect(served.downloads).toEqual(
      app.modules.map((m: { packageHash: string }) => ({ status: 200, sha256: m.packageHash })),
    );
    expect(verifyHarmonyManifest(app, sign, createPublicKey(harmonyDeveloperKey()))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `.tmp/e2e-install-harmony-store-390-${database}.png`, fullPage: true });
    await context.close();
  });
});
