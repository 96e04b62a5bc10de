import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLarkFake, startWecomFake, type LarkFake, type WecomFake } from '@release/fakes';
import { clickAtRest, settled } from './helpers/antd.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { larkEnv, wecomEnv } from './helpers/fakes.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

describe('Lark and WeCom sign-in in a real browser, against the fakes', () => {
  let lark: LarkFake;
  let wecom: WecomFake;
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    lark = await startLarkFake({ users: [{ name: '飞书张三' }, { name: '扫码李四' }] });
    wecom = await startWecomFake({ members: [{ userId: 'wangwu', name: '企微王五' }] });
    server = await startServerProcess({ ...larkEnv(lark), ...wecomEnv(wecom) });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await lark?.close();
    await wecom?.close();
  });

  it('飞书一键登录: passes the authorize page and lands on /home/app signed in', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/login');
    await page.getByTestId('login-feishu').click();
    // The fake's authorize page: approve as 飞书张三.
    await page.waitForURL((url) => url.href.startsWith(`${lark.url}/open-apis/authen/v1/authorize`));
    await page.getByRole('link', { name: '飞书张三' }).click();
    await page.waitForURL(/\/home\/app/);
    await expect.poll(() => page.getByTestId('user-menu').innerText()).toContain('飞书张三');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await context.close();
  });

  it('a declined authorization comes back to /login with the reason (at 768 px)', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 });
    await page.goto('/login');
    await page.getByTestId('login-feishu').click();
    await page.waitForURL((url) => url.href.startsWith(lark.url));
    await page.getByRole('link', { name: '拒绝授权' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await expect
      .poll(() => page.getByTestId('login-sign-in-error').innerText())
      .toContain('你已取消飞书授权，未能登录');
    // The button shows once the login options are read, which may be after the reason is shown.
    await expect.poll(() => page.getByTestId('login-feishu').isVisible()).toBe(true);
    await page.screenshot({ path: '.tmp/e2e-login-lark-denied-768.png' });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeFalsy();
    await context.close();
  });

  it('QR login: the phone scans and confirms, and the waiting page signs in', async () => {
    const desk = await newPage(browser, server.url);
    await desk.page.goto('/login');
    await desk.page.getByTestId('login-method').getByText('飞书扫码登录').click();
    const qr = desk.page.getByTestId('qr-login-code');
    await qr.waitFor();
    const scanned = (await qr.getAttribute('data-url')) ?? '';
    expect(scanned.startsWith(`${lark.url}/open-apis/authen/v1/authorize?`)).toBe(true);

    // The phone opens what the QR holds, approves in Lark and lands on /callback/feishu.
    const phone = await newPage(browser, server.url, { width: 390, height: 844 });
    await phone.page.goto(scanned);
    await phone.page.getByRole('link', { name: '扫码李四' }).click();
    await expect.poll(() => phone.page.getByTestId('feishu-callback-done').innerText()).toContain('已在电脑上完成登录');

    await desk.page.waitForURL(/\/home\/app/);
    await expect.poll(() => desk.page.getByTestId('user-menu').innerText()).toContain('扫码李四');
    await phone.context.close();
    await desk.context.close();
  });

  it('企业微信登录: the WeCom login page sends the browser back to /login, which signs in', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/login');
    await page.getByTestId('login-wecom').click();
    await page.waitForURL((url) => url.href.startsWith(`${wecom.url}/wwlogin/sso/login`));
    await page.getByRole('link', { name: '企微王五' }).click();
    await page.waitForURL(/\/home\/app/);
    await expect.poll(() => page.getByTestId('user-menu').innerText()).toContain('企微王五');
    await context.close();
  });

  it('inside the Lark client (auto_login=1): the JS bridge gives a code and the page signs in silently', async () => {
    const user = lark.addUser({ name: '客户端赵七' });
    const { context, page } = await newPage(browser, server.url);
    // Stand-in for the Lark client's JS bridge: config() is recorded, requestAccess() asks the fake for a code.
    const configs: Array<{ appId: string; timestamp: number; nonceStr: string; signature: string }> = [];
    await page.exposeFunction('larkFakeConfig', (config: (typeof configs)[number]) => void configs.push(config));
    await page.exposeFunction('larkFakeCode', (scopes: string[]) =>
      lark.mintCode({ openId: user.openId, scopes, ttlMs: 3 * 60_000 }),
    );
    await page.addInitScript(() => {
      const w = globalThis as unknown as Record<string, unknown> & {
        larkFakeConfig(c: unknown): void;
        larkFakeCode(s: string[]): Promise<string>;
      };
      w.h5sdk = {
        ready: (callback: () => void) => callback(),
        config: (options: unknown) => w.larkFakeConfig(options),
      };
      w.tt = {
        requestAccess: (options: { scopeList: string[]; success(result: { code: string }): void }) =>
          void w.larkFakeCode(options.scopeList).then((code) => options.success({ code })),
      };
    });
    await page.goto('/login?auto_login=1');
    await page.waitForURL(/\/home\/app/);
    await expect.poll(() => page.getByTestId('user-menu').innerText()).toContain('客户端赵七');
    // The page handed the bridge a signature of its own URL that the Lark client would accept.
    const [config] = configs;
    const ticket = lark.state.jsTickets[0]?.ticket ?? '';
    expect(config?.appId).toBe(lark.app.appId);
    expect(
      lark.verifyJsapiSignature({
        ticket,
        nonceStr: config?.nonceStr ?? '',
        timestamp: config?.timestamp ?? 0,
        url: `${server.url}/login?auto_login=1`,
        signature: config?.signature ?? '',
      }),
    ).toMatchObject({ ok: true });
    await context.close();
  });

  it('账号绑定: a signed-in user binds a Lark account, signs in with it, and unbinds it', async () => {
    lark.addUser({ name: '绑定孙八' });
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/login');
    await page.getByTestId('login-username').fill(E2E_ADMIN.username);
    await page.getByTestId('login-password').fill(E2E_ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/home\/app/);

    const openLinked = async () => {
      await page.getByTestId('user-menu').click();
      await clickAtRest(page.getByTestId('user-menu-linked'));
      await page.getByTestId('linked-accounts').waitFor();
    };
    await openLinked();
    await expect.poll(() => page.getByTestId('linked-accounts').innerText()).toContain('尚未绑定飞书或企业微信账号');
    await clickAtRest(page.getByTestId('bind-lark'));
    await page.waitForURL((url) => url.href.startsWith(lark.url));
    await page.getByRole('link', { name: '绑定孙八' }).click();
    await page.waitForURL(/\/home\/app/);
    await expect.poll(() => page.getByText('已绑定飞书账号').count()).toBeGreaterThan(0);
    await openLinked();
    await expect.poll(() => page.getByTestId('linked-lark').innerText()).toContain('飞书：绑定孙八');
    await page.screenshot({ path: '.tmp/e2e-linked-accounts.png' });

    // Another browser: 飞书一键登录 as that Lark user is this account.
    const other = await newPage(browser, server.url);
    await other.page.goto('/login');
    await other.page.getByTestId('login-feishu').click();
    await other.page.waitForURL((url) => url.href.startsWith(lark.url));
    await other.page.getByRole('link', { name: '绑定孙八' }).click();
    await other.page.waitForURL(/\/home\/app/);
    await expect.poll(() => other.page.getByTestId('user-menu').innerText()).toContain(E2E_ADMIN.username);
    await other.context.close();

    await clickAtRest(page.getByTestId('unbind-lark'));
    await settled(page, '.ant-popconfirm').locator('.ant-btn-primary').click();
    await expect.poll(() => page.getByTestId('linked-accounts').innerText()).toContain('尚未绑定飞书或企业微信账号');
    await context.close();
  });
});
