import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

const TESTER = { username: 'tester', password: 'tester-pass-1' };

/** The unread count on the bell (0 when it shows no badge). */
async function bellCount(page: Page): Promise<number> {
  const digits = /\d+/.exec(await page.getByTestId('notification-bell').innerText())?.[0];
  return digits ? Number(digits) : 0;
}

/** Live notifications (issue 20): a subscriber's bell counts a new version without a reload. */
describe.each(e2eDatabases())('the bell hears of a new version at once (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;
  let api: ReturnType<typeof createApi>;
  let admin: string;
  let appId: number;
  let published = 0;

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    api = createApi(server.url);
    admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const testerId = await api.createUser(admin, TESTER.username, TESTER.password, 30);
    appId = await api.createApp(admin, { appName: '星际快讯', path: 'xjkx', viewUserIds: [testerId] });
    const tester = await api.login(TESTER.username, TESTER.password);
    await api.call('POST', '/api/app_collect', tester, { appIds: [appId], appCollectType: 'subscribe' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of sizesFor(database, [390, 1280])) {
    it(`at ${width} px: the badge goes up by one when a version is published, with no reload`, async () => {
      const { context, page } = await newPage(browser, server.url, { width, height: 900 });
      await signIn(page, TESTER.username, TESTER.password);
      // The stream answers once it listens: from then on a new version reaches this page.
      const streaming = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events' && r.status() === 200);
      await page.goto('/home/app');
      await page.getByTestId('notification-bell').waitFor();
      await streaming;
      await expect.poll(() => bellCount(page)).toBe(published);
      // A mark on this document: a reload would lose it.
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));

      published += 1;
      await api.publishPackage(admin, appId, `xjkx-${published}.apk`, sampleApk({ versionName: `2.${published}` }));
      // Well inside the 60 s poll: the event, not the poll, brought it.
      await expect.poll(() => bellCount(page), { timeout: 15_000 }).toBe(published);
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await page.getByTestId('notification-bell').click();
      await expect.poll(() => page.getByTestId('notification-dropdown').innerText()).toContain('星际快讯');
      await page.screenshot({ path: `.tmp/e2e-live-bell-${database}-${width}.png` });
      await context.close();
    });
  }
});
