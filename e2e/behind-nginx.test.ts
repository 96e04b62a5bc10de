import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstallMessages, LARK_CALLBACK_PATH, LOGIN_MAX_FAILURES } from '@release/contract';
import { startLarkFake, type LarkFake } from '@release/fakes';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { IPHONE_UA, signIn } from './helpers/browser.ts';
import { watchCsp } from './helpers/csp.ts';
import { larkEnv } from './helpers/fakes.ts';
import { freePort, SITE_NAME, startNginx, type Nginx } from './helpers/nginx.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { createHash } from 'node:crypto';

interface SiteAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Issue 22: the server behind Debian's nginx running docs/deploy/nginx.conf, HTTPS with a certificate for
 * release.test and PUBLIC_URL=https://release.test:<port>. Every link a phone or Lark follows — part uploads, the
 * install page, the OTA manifest and the package it names, the QR code, Lark's redirect — uses the public https
 * address, and the client address the limits count is the one nginx saw. (SQLite: nothing here depends on the
 * database; the proxy handling is the same code on both.)
 */
describe('behind nginx with HTTPS', () => {
  let lark: LarkFake;
  let site: Nginx;
  let server: ServerProcess;
  let browser: Browser;
  const ipa = sampleIpa({ name: '星际舰队', bundleId: 'com.studio.starfleet', version: '2.0.0', build: '200' });
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-nginx-e2e-'));
  const ipaFile = path.join(files, 'StarFleet.ipa');
  const appPassword = '135790';
  let appId = 0;

  /** A request as a client at `from` sends it to the site: TLS for release.test, verified against its certificate. */
  function toSite(
    method: string,
    urlPath: string,
    options: { from?: string; headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<SiteAnswer> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port: site.httpsPort,
          servername: SITE_NAME,
          ca: site.certificate,
          method,
          path: urlPath,
          localAddress: options.from ?? '127.0.0.1',
          agent: false,
          headers: {
            host: `${SITE_NAME}:${site.httpsPort}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            ...options.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }
  const json = <T>(answer: SiteAnswer) =>
    JSON.parse(answer.body.toString('utf8')) as { code: number; msg: string; data: T };

  async function newSiteContext(
    viewport: { width: number; height: number },
    userAgent?: string,
  ): Promise<BrowserContext> {
    const context = await browser.newContext({
      baseURL: site.httpsUrl,
      viewport,
      locale: 'zh-CN',
      // The certificate is the test's own; what is checked is which address each link names.
      ignoreHTTPSErrors: true,
      ...(userAgent ? { userAgent } : {}),
    });
    context.setDefaultTimeout(15_000);
    await watchCsp(context);
    return context;
  }

  beforeAll(async () => {
    fs.writeFileSync(ipaFile, ipa);
    lark = await startLarkFake({ users: [] });
    const serverPort = await freePort();
    site = await startNginx(`127.0.0.1:${serverPort}`);
    server = await startServerProcess({
      PORT: String(serverPort),
      PUBLIC_URL: site.httpsUrl,
      TRUST_PROXY: '127.0.0.1',
      ...larkEnv(lark),
    });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
        `--host-resolver-rules=MAP ${SITE_NAME} 127.0.0.1`,
      ],
    });
    const digest = createHash('sha256').update(E2E_ADMIN.password).digest('hex');
    const login = json<{ token: string }>(
      await toSite('POST', '/api/user/login', { body: { username: E2E_ADMIN.username, password: digest } }),
    );
    expect(login.code).toBe(200);
    const created = json<{ appId: number }>(
      await toSite('POST', '/api/app', {
        headers: { token: login.data.token },
        body: { appName: '星际舰队', appType: 'native', password: appPassword, path: 'sjjd' },
      }),
    );
    expect(created.code).toBe(200);
    appId = created.data.appId;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await site?.stop();
    await lark?.close();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it('an ipa published in the browser through nginx installs from https links only: parts, page, manifest, package, QR', async () => {
    const desk = await newSiteContext({ width: 1280, height: 800 });
    const page = await desk.newPage();
    // The package's bytes: parts (PUT) for a big one, one POST for a package of one part (the web's short path).
    const uploadUrls: string[] = [];
    page.on('request', (request) => {
      const direct = request.method() === 'POST' && new URL(request.url()).pathname === '/api/upload_app/direct';
      if (request.method() === 'PUT' || direct) uploadUrls.push(request.url());
    });
    await signIn(page);
    await page.goto(`/publish?appId=${appId}`);
    await page.getByTestId('publish-dropzone').locator('input[type=file]').setInputFiles(ipaFile);
    await page.getByTestId('publish-submit').click();
    await page.getByTestId('publish-success').waitFor();
    expect(uploadUrls.length).toBeGreaterThan(0);
    expect(uploadUrls.every((url) => url.startsWith(`${site.httpsUrl}/`))).toBe(true);
    await desk.close();

    const phone = await newSiteContext({ width: 390, height: 844 }, IPHONE_UA);
    const install = await phone.newPage();
    await install.goto('/package/sjjd');
    await install.getByTestId('install-password').fill(appPassword);
    await install.getByTestId('install-submit').click();
    await install.getByTestId('install-version').first().waitFor();
    const href = (await install.getByTestId('install-action').first().getAttribute('href')) ?? '';
    expect(href.startsWith('itms-services://?action=download-manifest&url=')).toBe(true);
    const manifestUrl = new URL(href).searchParams.get('url') ?? '';
    expect(manifestUrl.startsWith(`${site.httpsUrl}/`)).toBe(true);
    const qr = (await install.getByTestId('install-qr').getAttribute('data-qr-value')) ?? '';
    expect(qr.startsWith(`${site.httpsUrl}/`)).toBe(true);
    expect(await install.getByTestId('qr-loopback-warning').count()).toBe(0);
    await install.screenshot({ path: '.tmp/e2e-behind-nginx-install-390.png', fullPage: true });
    await phone.close();

    // What iOS does next: read the manifest, then download the package it names — both over https through nginx.
    const manifest = await toSite('GET', new URL(manifestUrl).pathname + new URL(manifestUrl).search);
    expect(manifest.status).toBe(200);
    const packageUrl = /<key>url<\/key>\s*<string>([^<]+)<\/string>/.exec(manifest.body.toString('utf8'))?.[1] ?? '';
    const decoded = packageUrl.replaceAll('&amp;', '&');
    expect(decoded.startsWith(`${site.httpsUrl}/`)).toBe(true);
    const download = await toSite('GET', new URL(decoded).pathname + new URL(decoded).search);
    expect([download.status, download.body.equals(ipa)]).toEqual([200, true]);
  });

  it("Lark's sign-in sends the user back to the public https address", async () => {
    const answer = json<{ url: string }>(await toSite('GET', '/api/user/lark_login_url?mode=success_login'));
    expect(answer.code).toBe(200);
    expect(new URL(answer.data.url).searchParams.get('redirect_uri')).toBe(`${site.httpsUrl}${LARK_CALLBACK_PATH}`);
  });

  it('plain http is answered with a redirect to https', async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: site.httpPort, path: '/package/sjjd', headers: { host: SITE_NAME } }, resolve)
        .on('error', reject);
    });
    answer.resume();
    expect([answer.statusCode, answer.headers.location]).toEqual([301, `https://${SITE_NAME}/package/sjjd`]);
  });

  it('the install-password limit counts the address nginx saw, and a forged X-Forwarded-For does not reset it', async () => {
    const open = (from: string, password: string, headers: Record<string, string> = {}) =>
      toSite('GET', `/api/app_version?url=sjjd&password=${password}`, { from, headers });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      const wrong = await open('127.0.0.2', String(900000 + i));
      expect([wrong.status, json(wrong).msg]).toEqual([400, InstallMessages.passwordWrong]);
    }
    const locked = await open('127.0.0.2', appPassword);
    expect([locked.status, json(locked).msg]).toEqual([429, InstallMessages.tooManyTries(15)]);
    const forged = await open('127.0.0.2', appPassword, { 'x-forwarded-for': '203.0.113.7' });
    expect([forged.status, json(forged).msg]).toEqual([429, InstallMessages.tooManyTries(15)]);
    const other = await open('127.0.0.3', appPassword);
    expect([other.status, json(other).code]).toEqual([200, 200]);
  });
});
