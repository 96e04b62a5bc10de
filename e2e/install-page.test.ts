import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleIpa } from '../apps/server/src/inspect/testing/sample-packages.ts';
import { buildZip } from '../apps/server/src/inspect/testing/zip-writer.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { toastText } from './helpers/task-view.ts';

// A one-page web package that reports whether it could reach this site's storage (where the sign-in token lives).
const HTML_PAGE = `<!doctype html><meta charset="utf-8"><title>活动页</title><p id="probe">未运行</p>
<script>
  let reached;
  try { reached = localStorage.getItem('token') !== undefined ? '读到了本站存储' : ''; } catch { reached = '无法读取本站存储'; }
  document.getElementById('probe').textContent = '脚本已运行：' + reached;
</script>`;

async function unlock(page: Page, appPath: string) {
  await page.goto(`/package/${appPath}`);
  await page.getByTestId('install-password').fill('135790');
  await page.getByTestId('install-submit').click();
  await page.getByTestId('install-version').first().waitFor();
}

describe('the install page for web packages, unknown links, desktops and download-only testers', () => {
  let server: ServerProcess;
  let browser: Browser;
  let api: ReturnType<typeof createApi>;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const testerId = await api.createUser(admin, 'tester', 'tester-pass-1', 20);
    const webApp = await api.createApp(admin, { appName: '活动页面', path: 'promo', appType: 'native', viewUserIds: [testerId] });
    await api.publishPackage(admin, webApp, 'site.zip', buildZip([{ name: 'index.html', data: '<!doctype html><title>站点</title>' }]));
    await api.publishPackage(admin, webApp, '活动页.html', Buffer.from(HTML_PAGE));
    const iosApp = await api.createApp(admin, { appName: '内测应用', path: 'beta', appType: 'native' });
    await api.publishPackage(admin, iosApp, 'adhoc.ipa', sampleIpa({ name: '内测应用', version: '2.1.0', build: '210' }));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('打开 shows an html package in a new tab, its script runs but cannot read the signed-in site’s storage; a web zip is downloaded', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page);
    await unlock(page, 'promo');
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
    await context.close();
  });

  it('the password gate names the app; an unknown link says what to do and shows no QR code', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 });
    await page.goto('/package/promo');
    await page.getByTestId('install-gate').waitFor();
    await expect.poll(() => page.getByTestId('install-app-name').innerText().catch(() => '')).toBe('活动页面');

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
