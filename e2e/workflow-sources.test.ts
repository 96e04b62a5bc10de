import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowRow } from '@release/contract';
import { GitRepo } from '../apps/server/src/integrations/git/testing/git-fixture.ts';
import { firstSync } from './helpers/first-sync.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { ALICE, EDITOR, signIn, startWorkflowWorld, type WorkflowWorld } from './helpers/workflow-world.ts';

const HISTORY = 75;

/** How many lines an element's text takes. */
function lines(el: Locator): Promise<number> {
  return el.evaluate((node) =>
    Math.round(node.getBoundingClientRect().height / parseFloat(getComputedStyle(node).lineHeight)),
  );
}

/** A subject folded to at most three lines, with 展开 to show the rest. */
async function expectFolded(subject: Locator): Promise<void> {
  await expect.poll(() => subject.getByText('展开').count()).toBe(1);
  expect(await lines(subject)).toBeLessThanOrEqual(3);
}

describe('a long git history and pushed custom items in the browser', () => {
  let world: WorkflowWorld;
  let browser: Browser;
  const appPath = 'moon';
  let historyId = 0;
  let levelsId = 0;
  let moonId = 0;
  /** Pushes items to the 关卡 workflow's webhook and returns the answer's data. */
  let push: (items: object[]) => Promise<unknown> = () => Promise.reject(new Error('not ready'));

  beforeAll(async () => {
    world = await startWorkflowWorld();
    browser = await launchBrowser();
    const repo = GitRepo.init(`${world.client.dir}-history`);
    const start = Math.floor(Date.now() / 1000) - HISTORY * 60;
    for (let n = 1; n <= HISTORY; n++)
      repo.commit({ message: `chore: 第 ${n} 次提交`, author: ALICE, time: start + n * 60 });

    const { api, adminToken } = world;
    const editor = await api.login(EDITOR.username, EDITOR.password);
    const appId = await api.createApp(adminToken, { appName: '月光', path: appPath, editUserIds: [world.editorId] });
    moonId = appId;
    historyId = (
      await api.call<{ id: number }>('POST', '/api/workflow', editor, {
        appId,
        tabName: '历史',
        contentType: 'default',
        repoType: 'git',
        repoPath: repo.url,
      })
    ).id;
    // The server syncs a repository workflow when it is saved.
    expect(await firstSync(api, editor, appId, historyId)).toEqual({ error: null, items: HISTORY });

    levelsId = (
      await api.call<{ id: number }>('POST', '/api/workflow', editor, {
        appId,
        tabName: '关卡',
        contentType: 'custom',
        manageType: 'JPS_GAME',
        enterpriseName: '星辰工作室',
      })
    ).id;
    const levels = (await api.call<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, editor)).find(
      (w) => w.id === levelsId,
    );
    const now = Date.now();
    const items = [
      {
        id: 'jps-101',
        time: now - 120_000,
        author: '策划小李',
        message: '更新第一章关卡',
        metadata: {
          applications: [
            {
              applicationId: 7,
              name: '关卡编辑器',
              icon: null,
              changelogs: [{ id: 'l-1', elementType: 'level', gameplay: 'main', categoryName: '第一章', count: 3 }],
            },
          ],
        },
      },
      {
        id: 'doc-9',
        time: now - 60_000,
        author: '策划小李',
        message: '修改文档：第一章设计',
        metadata: {
          event: 'drive.file.edit_v1',
          spaceName: '策划文档',
          objTitle: '第一章设计',
          url: null,
          changeVisible: true,
          beforeContent: '标题\n敌人 3 个\n结尾',
          afterContent: '标题\n敌人 5 个\n结尾',
        },
      },
    ];
    push = async (pushed) => {
      const res = await fetch(levels?.webhookUrl ?? '', {
        method: 'POST',
        headers: { authorization: `Bearer ${levels?.webhookSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: pushed }),
      });
      return ((await res.json()) as { data: unknown }).data;
    };
    expect(await push(items)).toEqual({ received: 2, created: 2 });
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  it('scrolls a 75-commit history to its end, page after page, without repeats', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${historyId}`);
    const list = page.getByTestId('commit-list');
    const items = list.getByTestId('commit-item');
    // The first page holds 30 items (SPEC §9 on a screen of ordinary height).
    await expect.poll(() => items.count()).toBe(30);
    await expect
      .poll(async () => {
        await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        return page.getByTestId('commit-end').count();
      })
      .toBe(1);
    const shown = await list.getByTestId('commit-message').allInnerTexts();
    expect(shown).toHaveLength(HISTORY);
    expect(new Set(shown).size).toBe(HISTORY);
    expect(shown[0]).toBe(`第 ${HISTORY} 次提交`);
    expect(shown.at(-1)).toBe('第 1 次提交');
    expect(await page.getByTestId('commit-end').innerText()).toBe('没有更多内容了');
    await context.close();
  });

  it('shows pushed level changes with their labels and a document edit as a line diff', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${levelsId}`);
    const level = page.getByTestId('commit-item').filter({ hasText: '更新第一章关卡' });
    await expect.poll(() => level.innerText()).toContain('关卡 · 主玩法 · 第一章 × 3');
    expect(await level.innerText()).toContain('关卡编辑器');
    const doc = page.getByTestId('commit-item').filter({ hasText: '修改文档：第一章设计' });
    expect(await doc.getByTestId('commit-wiki-event').innerText()).toContain('修改文档');
    await doc.getByTestId('commit-wiki-diff').click();
    const diff = page.getByTestId('wiki-diff');
    await diff.waitFor();
    expect(await diff.locator('.wiki-diff-line.is-remove').allInnerTexts()).toEqual([
      expect.stringContaining('敌人 3 个'),
    ]);
    expect(await diff.locator('.wiki-diff-line.is-add').allInnerTexts()).toEqual([
      expect.stringContaining('敌人 5 个'),
    ]);
    // Before and after side by side: the two unchanged lines show on both sides.
    expect(await diff.locator('.wiki-diff-line.is-same').count()).toBe(4);
    await page.screenshot({ path: '.tmp/e2e-wiki-diff.png' });
    await context.close();
  });

  it('a subject of 1,000 characters folds after three lines with 展开 in the list, a day and the trend; a survey without a category has no stray ·', async () => {
    const long = `超长提交信息 ${'这是一段很长的说明文字，用来测试界面上的换行和截断。'.repeat(40)}`;
    const survey = {
      applications: [
        {
          applicationId: 8,
          name: '问卷系统',
          icon: null,
          changelogs: [{ id: 's-1', elementType: 'survey', gameplay: '', count: 2 }],
        },
      ],
    };
    const now = Date.now();
    expect(
      await push([
        { id: 'long-1', time: now - 30_000, author: '策划小周', message: long },
        { id: 'survey-1', time: now - 20_000, author: '策划小周', message: '问卷调查', metadata: survey },
      ]),
    ).toEqual({ received: 2, created: 2 });
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${levelsId}`);
    const surveyItem = page.getByTestId('commit-item').filter({ hasText: '问卷调查' });
    await expect.poll(() => surveyItem.getByTestId('commit-upload-log').innerText()).toContain('问卷 · 未知玩法 × 2');
    expect(await surveyItem.getByTestId('commit-upload-log').innerText()).not.toContain('· ×');

    const list = page.getByTestId('commit-list');
    const subject = list.getByTestId('commit-item').filter({ hasText: '超长提交信息' }).getByTestId('commit-message');
    await expectFolded(subject);
    await page.screenshot({ path: '.tmp/e2e-long-subject.png' });
    // 展开 shows all of it, 收起 folds it again.
    await subject.getByText('展开').click();
    await expect.poll(() => subject.innerText()).toContain(long.slice(-30));
    expect(await lines(subject)).toBeGreaterThan(3);
    await subject.getByText('收起').click();
    await expectFolded(subject);

    await page.getByTestId('view-toggle').getByText('日历').click();
    await page.locator(`[data-testid=calendar-day][data-date="${new Date(now).toLocaleDateString('sv-SE')}"]`).click();
    const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('day-drawer') });
    await expectFolded(
      drawer.getByTestId('commit-item').filter({ hasText: '超长提交信息' }).getByTestId('commit-message'),
    );
    await page.keyboard.press('Escape');

    await page.goto(`/trend/${encodeURIComponent('策划小周')}`);
    await expectFolded(
      page
        .getByTestId('commit-list')
        .getByTestId('commit-item')
        .filter({ hasText: '超长提交信息' })
        .getByTestId('commit-message'),
    );
    // The trend is reached from the app page's committers: 应用管理 stays highlighted.
    expect(await page.getByTestId('header-menu').locator('.ant-menu-item-selected').innerText()).toBe('应用管理');
    await context.close();
  });

  it('a 64-character tab name is cut with … at 1280 and 768 px and shown whole on hover', async () => {
    const editor = await world.api.login(EDITOR.username, EDITOR.password);
    const name = `超长的工作流名称${'很长'.repeat(28)}`;
    expect(name).toHaveLength(64);
    await world.api.call('POST', '/api/workflow', editor, {
      appId: moonId,
      tabName: name,
      contentType: 'custom',
      manageType: 'other',
    });
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 768, height: 1024 },
    ]) {
      const { context, page } = await newPage(browser, world.server.url, viewport);
      await signIn(page, EDITOR);
      await page.goto(`/home/app/${appPath}?workflowId=${historyId}`);
      const tab = page.getByTestId('workflow-tab').filter({ hasText: name });
      await tab.waitFor();
      expect(await tab.getAttribute('title')).toContain(name);
      const { shown, full } = await tab
        .locator('.workflow-tab-name')
        .evaluate((el) => ({ shown: el.clientWidth, full: el.scrollWidth }));
      expect(full).toBeGreaterThan(shown);
      expect(shown).toBeLessThanOrEqual(viewport.width < 1000 ? 140 : 200);
      // The other tabs stay on the bar beside it.
      expect(await page.getByTestId('workflow-tab').filter({ hasText: '历史' }).isVisible()).toBe(true);
      await context.close();
    }
  });

  it('a package workflow lists the apk published before it existed, with its version, platform, uploader and download link', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${world.appPath}`);
    await page.getByTestId('workflow-empty').getByTestId('workflow-add').click();
    const modal = page.getByTestId('workflow-modal');
    await modal.getByTestId('workflow-name').fill('测试包');
    await modal.getByTestId('workflow-category').getByText('安装包').click();
    await page.getByTestId('workflow-save').click();
    await expect.poll(() => modal.innerText()).toContain('请选择上传包类型!');
    await modal.getByTestId('workflow-package-type').click();
    // Clicked once the list has finished its entrance motion (a click during it can be lost on a loaded machine).
    await page
      .locator('.ant-select-dropdown:visible:not([class*="-appear"]):not([class*="-enter"])')
      .getByText('APK', { exact: true })
      .click();
    await page.getByTestId('workflow-save').click();
    const item = page.getByTestId('commit-item');
    await expect.poll(() => item.count()).toBe(1);
    // Named by its version (build) and index number, as in the package list; the uploader is said once.
    expect(await item.getByTestId('commit-package-version').innerText()).toBe('1.4.2 (302) #1');
    const row = item.getByTestId('commit-package');
    expect(await row.innerText()).toContain('上传人：editor');
    expect((await item.innerText()).split('editor').length - 1).toBe(1);
    expect(await item.getByTestId('commit-committer').count()).toBe(0);
    expect(await row.getByTestId('commit-package-download').getAttribute('href')).toMatch(/\/api\/blob\/file\?/);
    // A package item has no commit id to show.
    expect(await item.getByTestId('commit-id').count()).toBe(0);
    await context.close();
  });

  it('a wrong repository address says why and what to do, and a sync after fixing it brings the commits', async () => {
    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${appPath}?workflowId=${historyId}`);
    await page.getByTestId('commit-item').first().waitFor();
    await page.getByTestId('workflow-add').click();
    const modal = page.getByTestId('workflow-modal');
    await modal.getByTestId('workflow-name').fill('客户端');
    await modal.getByTestId('workflow-repo-path').fill(`${world.client.url}-missing`);
    await page.getByTestId('workflow-save').click();
    // The server syncs it once saved; the page waits for that sync and shows why it failed.
    await expect
      .poll(() => page.getByTestId('workflow-sync-error').allInnerTexts(), { timeout: 15_000 })
      .toEqual([expect.stringContaining('仓库不存在或无权访问：请检查仓库地址')]);
    expect(await page.getByTestId('commit-empty').innerText()).toContain(
      '点击编辑按钮修改仓库地址，再点击同步按钮重试',
    );

    await page.getByTestId('workflow-edit').click();
    await modal.getByTestId('workflow-repo-path').fill(world.client.url);
    await page.getByTestId('workflow-save').click();
    await modal.waitFor({ state: 'hidden' });
    // No 同步 needed: the fixed address is synced by the server, and the list shows its commits.
    await expect
      .poll(() => page.getByTestId('commit-list').getByTestId('commit-message').allInnerTexts())
      .toEqual(['修复启动崩溃', 'dev 分支上的缓存', '一键登录']);
    expect(await page.getByTestId('workflow-sync-error').count()).toBe(0);
    await context.close();
  });
});
