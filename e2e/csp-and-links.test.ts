import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { takeCspViolations } from './helpers/csp.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

// A server as `npm start` runs it by default: on every interface (HOST=0.0.0.0), without PUBLIC_URL.
describe.each(e2eDatabases())(
  'the web app under its Content-Security-Policy, on a server listening on the LAN (%s)',
  (database) => {
    let server: ServerProcess;
    let browser: Browser;
    let loopbackUrl: string;

    beforeAll(async () => {
      server = await startServerProcess({ HOST: '0.0.0.0' }, { database });
      loopbackUrl = `http://127.0.0.1:${new URL(server.url).port}`;
      browser = await launchBrowser();
      const api = createApi(loopbackUrl);
      const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
      const appId = await api.createApp(admin, { appName: '局域网应用', path: 'lan', appType: 'native' });
      await api.publishPackage(
        admin,
        appId,
        'lan.apk',
        sampleApk({ label: '局域网应用', packageName: 'com.example.lan', versionName: '1.0.0', versionCode: 1 }),
      );
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    it('prints the LAN address at start-up, not a loopback one', () => {
      const host = new URL(server.url).hostname;
      expect(host).not.toMatch(/^(localhost|127\.|\[::1\])/);
    });

    for (const viewport of sizesFor(database, [PHONE, DESKTOP])) {
      it(`gives a console opened at 127.0.0.1 a QR code with the LAN address, and no loopback warning (${viewport.width} px)`, async () => {
        const { context, page } = await newPage(browser, loopbackUrl, viewport);
        await signIn(page);
        await page.goto('/home/app/lan');
        const qr = page.getByTestId('app-qr');
        await qr.locator('svg').first().waitFor();
        expect(await qr.getAttribute('data-qr-value')).toBe(`${server.url}/package/lan`);
        expect(await page.getByTestId('app-download-url').innerText()).toBe(`${server.url}/package/lan`);
        expect(await page.getByTestId('qr-loopback-warning').count()).toBe(0);
        // The page's own requests stayed on the address it was opened at: the version list and its icon loaded.
        await page.getByTestId('version-row').first().waitFor();
        const icons = await page.locator('img').evaluateAll((images) =>
          images.map((img) => ({
            src: (img as HTMLImageElement).src,
            ok: (img as HTMLImageElement).naturalWidth > 0,
          })),
        );
        expect(icons.length).toBeGreaterThan(0);
        for (const icon of icons) expect(icon).toEqual({ src: icon.src, ok: true });
        await context.close();
      });

      it(`shows the install page at the LAN address with its QR code and no warning (${viewport.width} px)`, async () => {
        const { context, page } = await newPage(browser, server.url, viewport);
        const response = await page.goto('/package/lan');
        expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
        await page.getByTestId('install-password').fill('135790');
        await page.getByTestId('install-submit').click();
        await page.getByTestId('install-version').first().waitFor();
        expect(await page.getByTestId('install-qr').getAttribute('data-qr-value')).toBe(`${server.url}/package/lan`);
        expect(await page.getByTestId('qr-loopback-warning').count()).toBe(0);
        await context.close();
      });
    }

    it('blocks a script injected into a page, and the check sees it', async () => {
      const { context, page } = await newPage(browser, loopbackUrl);
      await page.goto('/login');
      await page.getByTestId('login-username').waitFor();
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.injectedRan = true';
        document.body.append(script);
      });
      await expect.poll(() => takeCspViolations().join('\n'), { timeout: 5_000 }).toContain('script-src');
      expect(await page.evaluate(() => (window as unknown as { injectedRan?: boolean }).injectedRan)).toBeUndefined();
      await context.close();
    });

    it('shows the API documentation (Swagger UI at /api/docs) under its own policy', async () => {
      // At the LAN address (a non-local host is where the UI could show an online validator's badge).
      const { context, page } = await newPage(browser, server.url);
      const response = await page.goto('/api/docs');
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      // The operations of the document, rendered by the UI's own scripts from /api/docs/json.
      await page.locator('.opblock').first().waitFor();
      expect(await page.locator('.opblock-summary-path').allInnerTexts()).toContain('/api/user/login');
      // In Chinese: the introduction, the tags with their descriptions, and each operation's summary.
      await expect.poll(() => page.locator('.info .description').innerText()).toContain('应答信封');
      expect(await page.locator('.opblock-tag').first().innerText()).toContain('登录');
      expect(await page.locator('.opblock-summary-description').allInnerTexts()).toContain('账号密码登录');
      await context.close();
    });
  },
);
