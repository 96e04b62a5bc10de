import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickAtRest } from './helpers/antd.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { EDITOR, signIn, startWorkflowWorld, type WorkflowWorld } from './helpers/workflow-world.ts';

/** Editing a repository workflow: what the open list shows right after 保存, without a reload or a manual sync. */
describe('editing a repository workflow in a real browser', () => {
  let world: WorkflowWorld;
  let browser: Browser;

  beforeAll(async () => {
    world = await startWorkflowWorld();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  const messages = (page: Page) => page.getByTestId('commit-message').allInnerTexts();
  async function editWorkflow(
    page: Page,
    change: (modal: ReturnType<Page['getByTestId']>) => Promise<void>,
  ): Promise<void> {
    await page.getByTestId('workflow-edit').click();
    const modal = page.getByTestId('workflow-modal');
    await modal.waitFor();
    await change(modal);
    await clickAtRest(page.getByTestId('workflow-save'));
    await modal.waitFor({ state: 'hidden' });
  }

  it('a fixed address syncs at once, another committer filter narrows the list already shown, and /commit opens an item by its short id', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    // Saved first with an address that cannot be read: the tab says why.
    await page.getByTestId('workflow-empty').getByTestId('workflow-add').click();
    const modal = page.getByTestId('workflow-modal');
    await modal.getByTestId('workflow-name').fill('客户端');
    await modal.getByTestId('workflow-repo-path').fill(`${world.client.url}-missing`);
    await modal.getByTestId('workflow-branches').fill('main');
    await clickAtRest(page.getByTestId('workflow-save'));
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('workflow-sync-error').count(), { timeout: 15_000 }).toBe(1);

    // The address corrected: its commits show without pressing 同步.
    await editWorkflow(page, (m) => m.getByTestId('workflow-repo-path').fill(world.client.url));
    await expect.poll(() => messages(page), { timeout: 15_000 }).toEqual(['修复启动崩溃', '一键登录']);

    // 提交人 = 王小明: alice's commit is hidden from the list at once.
    await editWorkflow(page, async (m) => {
      const committers = m.getByTestId('workflow-committers');
      await committers.click();
      await page.keyboard.type('王小明');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
    });
    await expect.poll(() => messages(page)).toEqual(['修复启动崩溃']);

    // /commit with the 7 characters the list shows opens that item.
    const shortId = world.client.git(['rev-parse', 'main']).trim().slice(0, 7);
    expect(await page.getByTestId('commit-item').first().innerText()).toContain(shortId);
    const workflows = await world.api.call<Array<{ id: number; tabName: string }>>(
      'GET',
      `/api/workflow?appId=${world.appId}`,
      await world.api.login(EDITOR.username, EDITOR.password),
    );
    await page.goto(`/commit?commitId=${shortId}&workflowId=${workflows.find((w) => w.tabName === '客户端')?.id}`);
    await expect
      .poll(() => page.getByTestId('commit-detail').getByTestId('commit-message').allInnerTexts())
      .toEqual(['修复启动崩溃']);
    await context.close();
  });
});
