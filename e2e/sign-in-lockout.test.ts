import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectToast } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const LOCKED = { username: 'locked-tester', password: 'right-pass-1' };

describe('a user locked out after ten wrong passwords sees why on the login page', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    const api = createApi(server.url);
    await api.createUser(await api.login(E2E_ADMIN.username, E2E_ADMIN.password), LOCKED.username, LOCKED.password, 20);
    // Ten wrong passwords from this machine (the browser signs in from the same address), sent at once.
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const res = await fetch(`${server.url}/api/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: LOCKED.username, password: 'f'.repeat(63) + String(i) }),
        });
        return ((await res.json()) as { msg: string }).msg;
      }),
    );
    expect(answers).toEqual(Array.from({ length: 10 }, () => '用户名或密码错误'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    it(`at ${viewport.width} px the right password is refused with the wait, and another user signs in from the same machine`, async () => {
      const { context, page } = await newPage(browser, server.url, viewport);
      await page.goto('/login');
      await page.getByTestId('login-username').fill(LOCKED.username);
      await page.getByTestId('login-password').fill(LOCKED.password);
      await page.getByTestId('login-submit').click();
      await expectToast(page, '密码错误次数过多，请15分钟后再试');
      expect(new URL(page.url()).pathname).toBe('/login');
      if (viewport.width === 390) await page.screenshot({ path: '/tmp/limits-login-lockout-390.png' });

      await page.getByTestId('login-username').fill(E2E_ADMIN.username);
      await page.getByTestId('login-password').fill(E2E_ADMIN.password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL(/\/home\/app/);
      await context.close();
    });
  }
});
