import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobScheduleRow } from '@release/contract';
import { expectToast } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

const VIEWER = { username: 'viewer', password: 'viewer-pass-1' };
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** 设置 → 后台任务 (issue 17.4): an admin sees each schedule's runs and runs one now; others are kept out. */
describe.each(e2eDatabases())('设置 → 后台任务 (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    // An hour between polls: nothing runs on its own while the scenario looks.
    server = await startServerProcess({ SYNC_INTERVAL_SEC: '3600' }, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login('admin', 'admin-e2e-pass');
    await api.createUser(admin, VIEWER.username, VIEWER.password, 30);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const text = (page: Page, id: string) => page.getByTestId(id).innerText();

  for (const width of sizesFor(database, [390, 1280])) {
    it(`at ${width} px: lists 定期清理 and 仓库轮询, runs the poll now, turns it off and on`, async () => {
      const { context, page } = await newPage(browser, server.url, { width, height: 900 });
      await signIn(page);
      await page.goto('/home/setting/jobs');
      await page.getByTestId('job-repository-poll').waitFor();
      expect(await page.getByTestId('job-housekeeping').innerText()).toContain('定期清理');
      expect(await page.getByTestId('job-repository-poll').innerText()).toContain('仓库轮询');
      expect(await page.getByTestId('job-repository-poll').innerText()).toContain('每 1 小时');
      const before = await text(page, 'job-last-run-repository-poll');

      await page.getByTestId('job-run-repository-poll').click();
      await expectToast(page, '已开始运行：仓库轮询');
      await expect.poll(() => text(page, 'job-last-run-repository-poll'), { timeout: 15_000 }).not.toBe(before);
      const lastRun = await text(page, 'job-last-run-repository-poll');
      expect(lastRun).toMatch(TIME);
      expect(await text(page, 'job-duration-repository-poll')).toMatch(/毫秒|秒/);
      expect(await text(page, 'job-last-error-repository-poll')).toBe('无');
      expect(await text(page, 'job-next-run-repository-poll')).toMatch(TIME);

      await page.getByTestId('job-enabled-repository-poll').click();
      await expectToast(page, '已停用：仓库轮询');
      await page.reload();
      await expect.poll(() => text(page, 'job-next-run-repository-poll')).toBe('已停用（到期不运行）');
      await page.getByTestId('job-enabled-repository-poll').click();
      await expect.poll(() => text(page, 'job-next-run-repository-poll')).toMatch(TIME);
      // The queue of durable jobs, the figures /metrics gives, below the schedules.
      const queue = page.getByTestId('job-queue');
      await queue.scrollIntoViewIfNeeded();
      expect(await queue.innerText()).toMatch(/任务队列[\s\S]*等待中[\s\S]*最早等待/);
      // Nothing is cut off at this width: the run button is on screen.
      const box = await page.getByTestId('job-run-repository-poll').boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `.tmp/e2e-jobs-${database}-${width}.png`, fullPage: true });
      await context.close();
    });
  }

  it('shows a run that failed with its reason, a list that failed to load with 重试, and no tab for a plain user', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 900 });
    await signIn(page);
    let failLoad = true;
    // The server's own answers, with the last poll failed as a repository that cannot be reached would make it.
    await page.route('**/api/system_setting/jobs', async (route) => {
      if (failLoad)
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ code: 503, msg: '数据库暂时不可用', data: null }),
        });
      const response = await route.fetch();
      const body = (await response.json()) as { data: JobScheduleRow[] };
      for (const row of body.data)
        if (row.name === 'repository-poll') row.lastError = '仓库地址无法访问：git@example.invalid:game.git';
      return route.fulfill({ response, json: body });
    });
    await page.goto('/home/setting/jobs');
    await page.getByTestId('jobs-error').waitFor();
    expect(await page.getByTestId('jobs-error').innerText()).toContain('后台任务读取失败');
    failLoad = false;
    await page
      .getByTestId('jobs-error')
      .getByRole('button', { name: '重 试' })
      .or(page.getByTestId('jobs-error').getByRole('button', { name: '重试' }))
      .click();
    await page.getByTestId('job-repository-poll').waitFor();
    expect(await text(page, 'job-last-error-repository-poll')).toBe('仓库地址无法访问：git@example.invalid:game.git');
    await context.close();

    const viewer = await newPage(browser, server.url, { width: 390, height: 900 });
    await signIn(viewer.page, VIEWER.username, VIEWER.password);
    await viewer.page.goto('/home/setting/jobs');
    await viewer.page.waitForURL(/\/403|\/home\/app/);
    expect(await viewer.page.getByTestId('jobs-page').count()).toBe(0);
    await viewer.context.close();
  });
});
