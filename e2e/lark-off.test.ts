import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowRow } from '@release/contract';
import { clickAtRest, settled } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';
import { EDITOR, signIn } from './helpers/workflow-world.ts';

const APP_PATH = 'nolark';

/** Issue 16.7: a studio without a Lark app sees no Lark-only control, and one 任务视图 control. */
describe.each(e2eDatabases())('without a Lark app, Lark-only controls are hidden (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const editorId = await api.createUser(admin, EDITOR.username, EDITOR.password, 30);
    const appId = await api.createApp(admin, { appName: '无飞书应用', path: APP_PATH, editUserIds: [editorId] });
    await api.call('POST', '/api/workflow', admin, {
      appId,
      tabName: '知识库',
      contentType: 'custom',
      manageType: 'wiki',
      enterpriseName: '星辰工作室',
    });
    const [wiki] = await api.call<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, admin);
    const res = await fetch(wiki?.webhookUrl ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${wiki?.webhookSecret ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: 'doc-1', time: Date.now() - 60_000, author: '策划小李', message: 'docs: 世界观设定' }],
      }),
    });
    expect(res.status).toBe(200);
    await api.call('POST', '/api/task_view', admin, { appId, taskViewEnabled: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of sizesFor(database, [390, 1280])) {
    it(`at ${width} px: no 文档 page, no follow-documents button, no （飞书） receivers, no Lark task buttons`, async () => {
      const { context, page } = await newPage(browser, server.url, { width, height: 900 });
      await signIn(page, EDITOR);
      await page.goto(`/home/app/${APP_PATH}`);
      await page.getByTestId('commit-item').first().waitFor();
      expect(await page.getByTestId('header-menu').innerText()).not.toContain('文档');
      // A wiki workflow still takes pushed items; only following Lark documents needs the Lark app.
      expect(await page.getByTestId('workflow-lark-docs').count()).toBe(0);

      await page.getByTestId('commit-item').first().getByTestId('commit-item-menu').click();
      await settled(page, '.ant-dropdown').getByTestId('commit-menu-send').click();
      const scopes = page.getByTestId('send-message-scope');
      await scopes.waitFor();
      expect(await scopes.innerText()).not.toContain('飞书');
      // No workflow robot and no Lark: the app's test group is the default receiver.
      expect(await page.getByRole('radio', { name: '测试群' }).isChecked()).toBe(true);
      await page.keyboard.press('Escape');

      await page.getByTestId('app-view-mode').getByText('任务视图').click();
      await page.getByTestId('task-view').waitFor();
      expect(await page.getByTestId('task-refresh').isVisible()).toBe(true);
      for (const id of ['task-lark-table', 'task-lark-task-list']) expect(await page.getByTestId(id).count()).toBe(0);
      // An editor sees the one view toggle and no switch or settings of it.
      expect(await page.getByTestId('app-view-bar').getByText('任务视图').count()).toBe(1);
      expect(await page.getByTestId('task-view-settings').count()).toBe(0);
      await page.screenshot({ path: `.tmp/e2e-lark-off-${database}-${width}.png` });
      await context.close();
    });
  }

  it('an admin turns the task view off beside the toggle, and on again with 开启任务视图', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 1280, height: 900 });
    await signIn(page, E2E_ADMIN);
    await page.goto(`/home/app/${APP_PATH}`);
    await page.getByTestId('task-view-settings').click();
    await clickAtRest(settled(page, '.ant-dropdown').getByTestId('task-view-off'));
    await expect.poll(() => page.getByTestId('app-view-mode').count()).toBe(0);
    expect(await page.getByTestId('task-view-switch').innerText()).toBe('开启任务视图');
    await page.getByTestId('task-view-switch').click();
    await page.getByTestId('task-view').waitFor();
    await context.close();
  });
});
