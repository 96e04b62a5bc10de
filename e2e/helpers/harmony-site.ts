import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DialectName } from '../../apps/server/src/db/database.ts';
import { createApi } from './api.ts';
import { HARMONY_UA, launchBrowser, newPage, signIn } from './browser.ts';
import { freePort, SITE_NAME, startNginx, type Nginx } from './nginx.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './server-process.ts';

/** A phone's window, as the HarmonyOS scenarios open the install page. */
export const PHONE = { width: 390, height: 844 };
const INSTALL_PASSWORD = '135790';
const STORE_LINK = 'store://enterprise/manifest?url=';

/**
 * Issue 21's enterprise install behind HTTPS: the server with Debian's nginx in front (docs/deploy/nginx.conf,
 * PUBLIC_URL its https address, as HarmonyOS reads manifests over HTTPS only), a Chromium that reaches release.test,
 * and the API on the server itself for seeding (its signed upload URLs name the site, so files go up through the
 * uploader in the browser).
 */
export interface HarmonySite {
  server: ServerProcess;
  site: Nginx;
  browser: Browser;
  /** The API on the server itself, and the admin's token there. */
  api: ReturnType<typeof createApi>;
  admin: string;
  stop(): Promise<void>;
}

export async function startHarmonySite(database: DialectName): Promise<HarmonySite> {
  const serverPort = await freePort();
  const site = await startNginx(`127.0.0.1:${serverPort}`);
  const server = await startServerProcess(
    { PORT: String(serverPort), PUBLIC_URL: site.httpsUrl, TRUST_PROXY: '127.0.0.1' },
    { database },
  );
  const browser = await launchBrowser([`--host-resolver-rules=MAP ${SITE_NAME} 127.0.0.1`]);
  const api = createApi(`http://127.0.0.1:${serverPort}`);
  const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
  const stop = async () => {
    await browser.close();
    await server.stop();
    await site.stop();
  };
  return { server, site, browser, api, admin, stop };
}

/** A page of the site (over HTTPS, the test's own certificate accepted) at `viewport`, as a HarmonyOS phone with `HARMONY_UA`. */
export function openSitePage(
  harmony: HarmonySite,
  viewport: { width: number; height: number },
  userAgent?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  return newPage(harmony.browser, harmony.site.httpsUrl, viewport, userAgent, true);
}

/**
 * Publishes module files through the uploader at 390 px, signed in as `user`, with `attachment` (e.g. a signed
 * manifest) when given; answers the version the success card names.
 */
export async function publishThroughUploader(
  harmony: HarmonySite,
  appId: number,
  files: string[],
  options: { attachment?: string; user?: { username: string; password: string } } = {},
): Promise<string> {
  const { context, page } = await openSitePage(harmony, PHONE);
  await signIn(page, options.user?.username, options.user?.password);
  await page.goto(`/publish?appId=${appId}`);
  await page.getByTestId('publish-dropzone').locator('input[type=file]').setInputFiles(files);
  if (options.attachment)
    await page.getByTestId('publish-attachments').locator('input[type=file]').setInputFiles(options.attachment);
  await page.getByTestId('publish-submit').click();
  await page.getByTestId('publish-success').waitFor();
  const version = await page.getByTestId('publish-success-version').innerText();
  await context.close();
  return version;
}

export interface StoreManifestModule {
  name: string;
  type: string;
  packageUrl: string;
  packageHash: string;
}
export interface StoreManifest {
  app: Record<string, unknown> & { modules: StoreManifestModule[]; icons: { normal: string } };
  sign: string;
}

/**
 * A HarmonyOS phone at 390 px opens the app's install page over HTTPS and enters the password; its 安装 is a
 * `store://enterprise/manifest?url=` link to a manifest on the site. What the phone does next, from the page over
 * HTTPS: reads the manifest, then each module it names; every module is on the site and downloads (200) exactly the
 * bytes its SHA-256 names. Answers the page, the manifest's URL and the manifest.
 */
export async function installFromStore(
  harmony: HarmonySite,
  appPath: string,
): Promise<{ context: BrowserContext; page: Page; manifestUrl: string; manifest: StoreManifest }> {
  const { context, page } = await openSitePage(harmony, PHONE, HARMONY_UA);
  await page.goto(`/package/${appPath}`);
  await page.getByTestId('install-password').fill(INSTALL_PASSWORD);
  await page.getByTestId('install-submit').click();
  const action = page.getByTestId('install-action').first();
  await action.waitFor();
  expect(await action.innerText()).toContain('安装');
  const href = (await action.getAttribute('href')) ?? '';
  expect(href.startsWith(STORE_LINK)).toBe(true);
  const manifestUrl = decodeURIComponent(href.slice(STORE_LINK.length));
  expect(manifestUrl.startsWith(`${harmony.site.httpsUrl}/`)).toBe(true);

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
  const manifest = served.manifest as StoreManifest;
  expect(manifest.app.deployDomain).toBe(new URL(harmony.site.httpsUrl).host);
  expect(manifest.app.modules.every((m) => m.packageUrl.startsWith(`${harmony.site.httpsUrl}/`))).toBe(true);
  expect(served.downloads).toEqual(manifest.app.modules.map((m) => ({ status: 200, sha256: m.packageHash })));
  return { context, page, manifestUrl, manifest };
}
