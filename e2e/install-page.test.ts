import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallPage } from '@release/contract';
import { makeProfile, profileDict } from '@release/inspect/testing/packages.ts';
import { sampleApk, sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { makeIdentity } from '@release/inspect/testing/signing.ts';
import { DAY_MS } from '@release/inspect/testing/validity.ts';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { createApi } from './helpers/api.ts';
import { IPHONE_UA, launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { toastText } from './helpers/task-view.ts';

// A one-page web package that reports whether it could reach this site's storage (where the sign-in token lives).
const HTML_PAGE = `<!doctype html><meta charset="utf-8"><title>活动页</title><p id="probe">未运行</p>
<script>
  let reached;
  try { reached = localStorage.getItem('token') !== undefined ? '读到了本站存储' : ''; } catch { reached = '无法读取本站存储'; }
  document.getElementById('probe').textContent = '脚本已运行：' + reached;
</script>`;

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
// iPadOS Safari asks for desktop pages: it names itself a Mac, and only its touch points tell it apart.
const IPADOS_DESKTOP_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const LARK_IPHONE_UA = `${IPHONE_UA} Lark/7.14.5 LarkLocale/zh_CN`;

/** Opens the page (`/package/<path>` unless a route is given), enters the password, and answers what the page was sent. */
async function unlock(page: Page, route: string): Promise<InstallPage> {
  await page.goto(route.startsWith('/') ? route : `/package/${route}`);
  await page.getByTestId('install-password').fill('135790');
  const answered = page.waitForResponse((r) => r.url().includes('/api/app_version?') && r.url().includes('password='));
  await page.getByTestId('install-submit').click();
  const body = (await (await answered).json()) as { data: InstallPage };
  await page.getByTestId('install-version').first().waitFor();
  return body.data;
}

/** Each package's action as the user sees it: label and link, newest first. */
async function actions(page: Page): Promise<Array<{ id: number; text: string; href: string | null }>> {
  return page.getByTestId('install-version').evaluateAll((items) =>
    items.map((item) => {
      const action = item.querySelector<HTMLAnchorElement>('[data-testid="install-action"]');
      return {
        id: Number(item.getAttribute('data-version-id')),
        text: action?.innerText.trim() ?? '',
        href: action?.getAttribute('href') ?? null,
      };
    }),
  );
}

const downloadUrls = (data: InstallPage) => new Map(data.versions.map((v) => [v.id, v.downloadUrl]));

describe('the install page for web packages, unknown links, packages for another device and download-only testers', () => {
  let server: ServerProcess;
  let browser: Browser;
  let api: ReturnType<typeof createApi>;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const testerId = await api.createUser(admin, 'tester', 'tester-pass-1', 20);
    const webApp = await api.createApp(admin, {
      appName: '活动页面',
      path: 'promo',
      appType: 'native',
      viewUserIds: [testerId],
    });
    await api.publishPackage(
      admin,
      webApp,
      'site.zip',
      buildZip([{ name: 'index.html', data: '<!doctype html><title>站点</title>' }]),
    );
    await api.publishPackage(admin, webApp, '活动页.html', Buffer.from(HTML_PAGE));
    const iosApp = await api.createApp(admin, { appName: '内测应用', path: 'beta', appType: 'native' });
    await api.publishPackage(
      admin,
      iosApp,
      'adhoc.ipa',
      sampleIpa({ name: '内测应用', version: '2.1.0', build: '210' }),
    );
    // Enterprise builds install on any iPhone: no device registration box beside the hint. 3.1's profile is
    // current, as a typical build's is; 3.0's ran out yesterday.
    const profileSigner = makeIdentity('Apple iPhone OS Provisioning Profile Signing');
    const enterprise = (overrides: Parameters<typeof profileDict>[1] = {}) =>
      makeProfile(profileDict([], { ProvisionedDevices: [], ProvisionsAllDevices: true, ...overrides }), profileSigner);
    const bothApp = await api.createApp(admin, { appName: '双端应用', path: 'both', appType: 'native' });
    await api.publishPackage(
      admin,
      bothApp,
      'Both-3.0.ipa',
      sampleIpa({
        name: '双端应用',
        version: '3.0.0',
        build: '300',
        extra: { 'embedded.mobileprovision': enterprise({ ExpirationDate: new Date(Date.now() - DAY_MS) }) },
      }),
    );
    await api.publishPackage(
      admin,
      bothApp,
      'Both-3.1.ipa',
      sampleIpa({
        name: '双端应用',
        version: '3.1.0',
        build: '310',
        extra: { 'embedded.mobileprovision': enterprise() },
      }),
    );
    await api.publishPackage(
      admin,
      bothApp,
      'Both.apk',
      sampleApk({ label: '双端应用', packageName: 'com.example.both', versionName: '3.1.0', versionCode: 310 }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('打开 shows an html package in a new tab, its script runs but cannot read the signed-in site’s storage; a web zip is downloaded', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page);
    // Signed in as an admin: the page opens without the install password.
    await page.goto('/package/promo');
    await page.getByTestId('install-version').first().waitFor();
    expect(await page.getByTestId('install-gate').count()).toBe(0);
    const open = page.getByTestId('install-action').first();
    expect(await open.innerText()).toContain('打开');
    const [opened] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await expect.poll(() => opened.locator('#probe').innerText()).toBe('脚本已运行：无法读取本站存储');
    expect(new URL(opened.url()).pathname).toBe('/api/app_version/open');
    await opened.close();

    // The older web zip: its action downloads the zip itself.
    const zipAction = page.getByTestId('install-version').nth(1).getByTestId('install-action');
    expect(await zipAction.innerText()).toContain('下载');
    const [zip] = await Promise.all([page.waitForEvent('download'), zipAction.click()]);
    expect(zip.suggestedFilename()).toBe('site.zip');
    await context.close();
  });

  it('下载 of an html package on the app page downloads the file (it was refused with 参数错误)', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page);
    await page.goto('/home/app/promo');
    // Newest first: the html page.
    const row = page.getByTestId('version-row').first();
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('version-download').click()]);
    expect(download.suggestedFilename()).toBe('活动页.html');

    // The server runs on 127.0.0.1 without PUBLIC_URL: the QR code holds a loopback address, and the admin is told so
    // beside it, with the way to 设置 → 系统.
    const warning = page.getByTestId('app-qr').getByTestId('qr-loopback-warning');
    expect(await warning.innerText()).toContain('二维码中的地址是本机地址，手机无法打开');
    expect(await warning.innerText()).toContain('PUBLIC_URL');
    await warning.getByTestId('qr-loopback-check').click();
    await page.waitForURL(/\/home\/setting\/system$/);
    await context.close();
  });

  it('the password gate names the app; an unknown link says what to do and shows no QR code', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 });
    await page.goto('/package/promo');
    await page.getByTestId('install-gate').waitFor();
    await expect
      .poll(() =>
        page
          .getByTestId('install-app-name')
          .innerText()
          .catch(() => ''),
      )
      .toBe('活动页面');

    await page.goto('/package/nosuchapp');
    const missing = page.getByTestId('install-missing');
    await missing.waitFor();
    expect(await missing.innerText()).toContain('请向应用负责人索取最新的下载链接或二维码');
    expect(await page.getByTestId('install-qr').count()).toBe(0);
    await context.close();
  });

  it('a desktop browser is told to open an ad-hoc iOS build on the iPhone instead of the registration steps', async () => {
    const { context, page } = await newPage(browser, server.url);
    await unlock(page, 'beta');
    const hint = page.getByTestId('register-on-iphone');
    await hint.waitFor();
    expect(await hint.innerText()).toContain('请用 iPhone 相机扫描本页的二维码');
    expect(await page.getByTestId('register-device').count()).toBe(0);
    expect(await page.getByTestId('install-qr').isVisible()).toBe(true);
    // The page was opened as 127.0.0.1, so its QR code is of no use to a phone: said beside it, without the admin's link.
    const warning = page.getByTestId('install-qr').getByTestId('qr-loopback-warning');
    expect(await warning.isVisible()).toBe(true);
    expect(await warning.innerText()).toContain(
      '请管理员把服务的 PUBLIC_URL 设置为手机能访问的地址后重启服务，或用局域网地址打开本页',
    );
    expect(await warning.getByTestId('qr-loopback-check').count()).toBe(0);
    // The registration box says how to open the page there; the hint above it does not say it twice.
    expect(await page.getByTestId('install-elsewhere').innerText()).toBe('请在 iPhone 或 iPad 上扫码安装');
    expect((await actions(page)).map((a) => a.text)).toEqual(['下载 IPA']);
    await context.close();
  });

  it('on a desktop an iOS package does not offer 安装: it says to scan the QR code on an iPhone or iPad, and 下载 IPA downloads the file', async () => {
    const { context, page } = await newPage(browser, server.url);
    const data = await unlock(page, '/ios/both');
    const hint = page.getByTestId('install-elsewhere');
    await hint.waitFor();
    expect(await hint.innerText()).toContain('请在 iPhone 或 iPad 上扫码安装');
    expect(await hint.innerText()).toContain(
      '用 iPhone 或 iPad 的相机扫描本页二维码，在 Safari 中打开本页后点击“安装”。',
    );
    expect(await page.getByTestId('install-qr').isVisible()).toBe(true);
    // Beside the QR code nothing needs scrolling to.
    expect(await page.getByTestId('install-show-qr').isVisible()).toBe(false);
    // Every iOS version, the older one too, links its own file and nothing links itms-services.
    const urls = downloadUrls(data);
    const shown = await actions(page);
    expect(shown.map((a) => a.text)).toEqual(['下载 IPA', '下载 IPA']);
    expect(shown.map((a) => a.href)).toEqual(shown.map((a) => urls.get(a.id)));
    expect(await page.locator('a[href^="itms-services:"]').count()).toBe(0);
    // The newest build is current and carries no warning; only the older one, whose profile ran out, says so.
    expect(await page.getByTestId('install-expired').count()).toBe(0);
    expect(await page.getByTestId('install-version').nth(1).getByTestId('version-expired').innerText()).toBe(
      '证书已过期',
    );
    expect(await page.getByTestId('version-expired').count()).toBe(1);
    expect(await page.getByTestId('install-https-alert').isVisible()).toBe(true);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('install-action').first().click(),
    ]);
    expect(file.suggestedFilename()).toBe('Both-3.1.ipa');

    // An apk can be installed from a computer (adb): its action stays 下载安装.
    await page.getByTestId('install-platform').getByText('Android').click();
    await expect.poll(async () => (await actions(page)).map((a) => a.text)).toEqual(['下载安装']);
    expect(await hint.count()).toBe(0);
    await context.close();
  });

  it('on an iPhone, an in-app browser and an iPad that calls itself a Mac the same package is 安装 (itms-services), with the HTTPS and in-app alerts', async () => {
    for (const device of [
      { userAgent: IPHONE_UA, viewport: { width: 375, height: 812 }, touchPoints: 5 },
      { userAgent: LARK_IPHONE_UA, viewport: { width: 375, height: 812 }, touchPoints: 5 },
      { userAgent: IPADOS_DESKTOP_UA, viewport: { width: 768, height: 1024 }, touchPoints: 5 },
    ]) {
      const { context, page } = await newPage(browser, server.url, device.viewport, device.userAgent);
      await context.addInitScript(
        (points) => Object.defineProperty(Navigator.prototype, 'maxTouchPoints', { get: () => points }),
        device.touchPoints,
      );
      await unlock(page, '/ios/both');
      const shown = await actions(page);
      expect(shown.map((a) => a.text)).toEqual(['安装', '安装']);
      for (const action of shown) expect(action.href).toMatch(/^itms-services:\/\/\?action=download-manifest&url=/);
      expect(await page.getByTestId('install-elsewhere').count()).toBe(0);
      expect(await page.getByTestId('install-https-alert').innerText()).toContain('iOS 只能通过 HTTPS 安装');
      const inApp = device.userAgent === LARK_IPHONE_UA;
      expect(await page.getByTestId('install-inapp-banner').count()).toBe(inApp ? 1 : 0);
      if (inApp)
        expect(await page.getByTestId('install-inapp-banner').innerText()).toContain('选择“在 Safari 中打开”后再安装');
      await context.close();
    }
  });

  it('an Android package on an iPhone says it installs on Android and offers 下载 APK; an iOS package on an Android phone scrolls to the QR code', async () => {
    const iphone = await newPage(browser, server.url, { width: 375, height: 812 }, IPHONE_UA);
    const data = await unlock(iphone.page, '/android/both');
    const hint = iphone.page.getByTestId('install-elsewhere');
    await hint.waitFor();
    expect(await hint.innerText()).toContain('请在 Android 手机上扫码安装');
    expect(await hint.innerText()).toContain('用 Android 手机扫描本页二维码，在浏览器中打开本页后点击“下载安装”。');
    const [apk] = await actions(iphone.page);
    expect(apk).toEqual({
      id: data.versions.find((v) => v.nativePackageType === 'android')?.id,
      text: '下载 APK',
      href: downloadUrls(data).get(apk?.id ?? 0),
    });
    await iphone.context.close();

    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 }, ANDROID_UA);
    await unlock(page, '/ios/both');
    await page.getByTestId('install-elsewhere').waitFor();
    expect(await page.getByTestId('install-elsewhere').innerText()).toContain('请在 iPhone 或 iPad 上扫码安装');
    expect((await actions(page)).map((a) => a.text)).toEqual(['下载 IPA', '下载 IPA']);
    // One column: the QR code is under the packages until 查看二维码 brings it up.
    const qrInView = () =>
      page.getByTestId('install-qr').evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
    expect(await qrInView()).toBe(false);
    await page.getByTestId('install-show-qr').click();
    await expect.poll(qrInView).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('a tester who may only download the app is warned by 更新应用 in place, and no window opens', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'tester', 'tester-pass-1');
    await page.goto('/home/app/promo');
    await page.getByTestId('app-actions').waitFor();
    const opened: Page[] = [];
    context.on('page', (p) => opened.push(p));
    await page.getByTestId('publish-button').click();
    await expect.poll(() => toastText(page)).toContain('您只有该应用的下载权限，请联系管理员为您添加应用的编辑权限');
    expect(opened).toEqual([]);
    await context.close();
  });
});
