import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickAtRest } from './helpers/antd.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { e2eDatabases, sizesFor } from './helpers/server-process.ts';
import { EDITOR, signIn, startWorkflowWorld, type WorkflowWorld } from './helpers/workflow-world.ts';

const messagesOf = (page: Page, tabName: string) => async () => {
  await page.getByTestId('workflow-tab').filter({ hasText: tabName }).click();
  return page.getByTestId('commit-list').getByTestId('commit-message').allInnerTexts();
};

/**
 * Issue 16.10 in the browser: a repository workflow's history is there as soon as it is saved — from the
 * console at a phone's width and a desktop's, and from a script through the API (the server starts the first
 * sync whoever saved it; scheduled polling is off here, so nothing else could bring the commits).
 */
describe.each(e2eDatabases())('a new repository workflow shows its history at once (%s)', (database) => {
  let world: WorkflowWorld;
  let browser: Browser;

  beforeAll(async () => {
    world = await startWorkflowWorld({ database });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  for (const [viewport, tabName] of sizesFor(database, [
    [{ width: 390, height: 844 }, '客户端'],
    [{ width: 1280, height: 800 }, '客户端 dev'],
  ] as const)) {
    it(`saved in 添加工作流 at ${viewport.width} px, its commits are listed without pressing 同步`, async () => {
      const { context, page } = await newPage(browser, world.server.url, viewport);
      await signIn(page, EDITOR);
      await page.goto(`/home/app/${world.appPath}`);
      await page.getByTestId('workflow-add').first().click();
      const modal = page.getByTestId('workflow-modal');
      await modal.getByTestId('workflow-name').fill(tabName);
      await modal.getByTestId('workflow-repo-path').fill(world.client.url);
      await modal.getByTestId('workflow-branches').fill(tabName === '客户端' ? 'main' : 'dev');
      await clickAtRest(page.getByTestId('workflow-save'));
      await page.getByTestId('workflow-tab').filter({ hasText: tabName }).waitFor();
      const expected = tabName === '客户端' ? ['修复启动崩溃', '一键登录'] : ['dev 分支上的缓存', '一键登录'];
      await expect.poll(messagesOf(page, tabName)).toEqual(expected);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await context.close();
    });
  }

  it('created through the API by a script, its commits are listed when the page is opened', async () => {
    const editor = await world.api.login(EDITOR.username, EDITOR.password);
    await world.api.call('POST', '/api/workflow', editor, {
      appId: world.appId,
      tabName: '服务端',
      contentType: 'default',
      repoType: 'git',
      repoPath: world.backend.url,
      defaultBranch: 'main',
    });
    const { context, page } = await newPage(browser, world.server.url, { width: 390, height: 844 });
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('workflow-tab').filter({ hasText: '服务端' }).waitFor();
    await expect.poll(messagesOf(page, '服务端')).toEqual(['订单接口']);
    await context.close();
  });
});
