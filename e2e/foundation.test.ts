import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickAtRest, expectToast, pickOption, settled } from './helpers/antd.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const NEW_USER = { username: '测试小王', password: 'tester-pass-1' };

async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home\/app/);
}

async function signOut(page: Page) {
  await page.getByTestId('user-menu').click();
  await clickAtRest(page.getByTestId('logout'));
  await page.waitForURL(/\/login/);
}

describe('foundation in a real browser', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('admin signs in, creates a user with a role, and signs out', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await expect.poll(() => page.getByTestId('app-list-empty').innerText()).toContain('您还没有添加应用');
    await expect.poll(() => page.getByTestId('publish-button').innerText()).toContain('发布/更新应用');
    await page.screenshot({ path: '.tmp/e2e-home-admin.png' });
    // No Lark app here: no 文档 page in the menu.
    expect(await page.getByTestId('header-menu').innerText()).not.toContain('文档');

    await page.getByTestId('header-menu').getByText('设置').click();
    await page.waitForURL(/\/home\/setting\/user-manage/);
    await page.getByTestId('user-add').click();
    const modal = page.getByTestId('user-modal');
    await modal.getByTestId('user-username').fill(NEW_USER.username);
    await modal.getByTestId('user-password').fill(NEW_USER.password);
    await pickOption(page, modal.getByTestId('user-role'), '测试（20）');
    await clickAtRest(page.locator('.ant-modal:visible .ant-btn-primary'));
    await expect.poll(() => page.getByTestId('user-table').innerText()).toContain(NEW_USER.username);
    expect(await page.getByTestId('user-table').innerText()).toContain('测试');

    await signOut(page);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeFalsy();
    await context.close();
  });

  it('the new user is refused the settings page, and the session survives a reload', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, NEW_USER.username, NEW_USER.password);
    await expect.poll(() => page.getByTestId('publish-button').innerText()).toContain('更新应用');
    expect(await page.getByTestId('publish-button').innerText()).not.toContain('发布');
    await expect.poll(() => page.getByTestId('app-list-empty').innerText()).toContain('您还没有应用');
    expect(await page.getByTestId('header-menu').innerText()).not.toContain('设置');

    await page.goto('/home/setting/user-manage');
    await expectToast(page, '您没有权限访问');
    await page.waitForURL(/\/home\/app/);
    expect(await page.getByTestId('user-table').count()).toBe(0);

    await page.reload();
    await page.getByTestId('app-sider').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/home\/app/);
    await context.close();
  });

  it('without Lark configured, 账号绑定 says why nothing can be bound instead of an empty list alone', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, NEW_USER.username, NEW_USER.password);
    await page.getByTestId('user-menu').click();
    await settled(page, '.ant-dropdown').getByText('账号绑定').click();
    const modal = page.getByTestId('linked-accounts');
    // The two come from two requests (the sign-in options, the bound accounts): either may answer first.
    await expect.poll(() => modal.innerText()).toContain('本系统尚未接入飞书，暂时无法绑定');
    await expect.poll(() => modal.innerText()).toContain('尚未绑定飞书或企业微信账号');
    expect(await page.getByTestId('bind-lark').count()).toBe(0);
    await context.close();
  });

  it('an expired or revoked token lands on /login?auto_login=1', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, NEW_USER.username, NEW_USER.password);
    // Older than 7 days on the client.
    await page.evaluate(() => localStorage.setItem('tokenTime', String(Date.now() - 8 * 24 * 3600 * 1000)));
    await page.goto('/home/app');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('auto_login') === '1');

    // Revoked on the server while the browser still holds it.
    await signIn(page, NEW_USER.username, NEW_USER.password);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const logout = await fetch(`${server.url}/api/user/logout`, { method: 'POST', headers: { token: token ?? '' } });
    expect(logout.status).toBe(200);
    await page.reload();
    await expectToast(page, '账号登录信息已过期，即将跳转登录~');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('auto_login') === '1');
    await context.close();
  });

  it('an admin demoted while on a settings page is sent to /403 by the next call', async () => {
    const api = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { token, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await res.json()) as { code: number; data: unknown };
    };
    const digest = async (text: string) =>
      Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex');
    const login = (await api('POST', '/api/user/login', '', {
      username: E2E_ADMIN.username,
      password: await digest(E2E_ADMIN.password),
    })) as { data: { token: string } };
    const roles = (await api('GET', '/api/roles?pageNo=1&pageSize=100', login.data.token)) as {
      data: Array<{ roleId: number; roleLevel: number }>;
    };
    const adminRole = roles.data.find((r) => r.roleLevel === 100)?.roleId;
    const devRole = roles.data.find((r) => r.roleLevel === 30)?.roleId;
    const created = (await api('POST', '/api/user', login.data.token, {
      username: 'second-admin',
      password: await digest('second-pass'),
      roleId: adminRole,
    })) as { data: { userId: number } };

    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'second-admin', 'second-pass');
    await page.goto('/home/setting/user-manage');
    await page.getByTestId('user-table').waitFor();
    expect(
      (await api('POST', '/api/user_role', login.data.token, { userId: created.data.userId, roleId: devRole })).code,
    ).toBe(200);
    await page.getByTestId('user-search').locator('input').fill('second');
    await page.getByTestId('user-search').locator('input').press('Enter');
    await page.waitForURL(/\/403$/);
    await page.getByTestId('forbidden-page').waitFor();
    expect(await page.getByTestId('notification-bell').count()).toBe(0);
    expect(await page.getByTestId('header-menu').count()).toBe(0);
    await context.close();
  });

  it('at 390 px the sider collapses and the filter opens in a modal titled 筛选', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
    await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
    const sider = page.getByTestId('app-sider');
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(51);
    await page.getByTestId('sider-filter-button').click();
    const modal = page.getByTestId('filter-modal');
    await modal.waitFor();
    expect(await page.locator('.ant-modal-title:visible').innerText()).toBe('筛选');
    await page.screenshot({ path: '.tmp/e2e-home-mobile.png' });
    await context.close();
  });
});
