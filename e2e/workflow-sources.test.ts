import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowRow } from '@release/contract';
import { GitRepo } from '../apps/server/src/integrations/git/testing/git-fixture.ts';
import { clickAtRest, openDropdown, pickOption } from './helpers/antd.ts';
import { firstSync } from './helpers/first-sync.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import {
  ALICE,
  EDITOR,
  signIn,
  startWorkflowWorld,
  todayAt,
  VIEWER,
  type WorkflowWorld,
} from './helpers/workflow-world.ts';

const HISTORY = 75;
const ZHAO = { name: '赵晨', email: 'zhao@studio.test' };
const SUN = { name: '孙琪', email: 'sun@studio.test' };

/** Each update item as the user reads it: its message and where it comes from (app / tab). */
function itemsOf(scope: Locator): Promise<string[]> {
  return scope
    .getByTestId('commit-item')
    .evaluateAll((items) =>
      items.map(
        (el) =>
          `${el.querySelector('[data-testid=commit-message]')?.textContent} · ${el.querySelector('[data-testid=commit-source]')?.textContent}`,
      ),
    );
}

/** A calendar day's count per app / workflow as its chips say it ('晨曦：4'). */
function chipsOf(day: Locator): Promise<Array<string | null>> {
  return day.locator('.calendar-count').evaluateAll((els) => els.map((el) => el.getAttribute('title')));
}

/** A calendar day's chip colour per app / workflow. */
async function colorsOf(day: Locator): Promise<Record<string, string>> {
  const pairs = await day
    .locator('.calendar-count')
    .evaluateAll((els) =>
      els.map((el) => [el.querySelector('.calendar-count-name')?.textContent ?? '', getComputedStyle(el).color]),
    );
  return Object.fromEntries(pairs);
}

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

  it('工作流汇总 of two branches of one repository: a calendar day lists the copies of a commit together as the list does, and counts each commit once', async () => {
    const { api, adminToken } = world;
    const editor = await api.login(EDITOR.username, EDITOR.password);
    // Three commits of one scripted push (the same second) on main, then release branches off with one more.
    const repo = GitRepo.init(`${world.client.dir}-branches`);
    const pushed = todayAt(0);
    for (const n of [1, 2, 3]) repo.commit({ message: `feat: 第 ${n} 个功能`, author: ZHAO, time: pushed });
    repo.checkout('release', true);
    repo.commit({ message: 'docs: 发布说明', author: ZHAO, time: pushed + 30 });
    const appId = await api.createApp(adminToken, { appName: '晨曦', path: 'dawn', editUserIds: [world.editorId] });
    for (const [tabName, branch, created] of [
      ['主干', 'main', 3],
      ['发布', 'release', 4],
    ] as const) {
      const id = (
        await api.call<{ id: number }>('POST', '/api/workflow', editor, {
          appId,
          tabName,
          contentType: 'default',
          repoType: 'git',
          repoPath: repo.url,
          defaultBranch: branch,
        })
      ).id;
      expect(await firstSync(api, editor, appId, id)).toEqual({ error: null, items: created });
    }
    // Each workflow keeps its own item of a commit on both branches; the list shows them one after the other.
    const together = [
      '发布说明 · 晨曦 / 发布',
      ...[3, 2, 1].flatMap((n) => [`第 ${n} 个功能 · 晨曦 / 发布`, `第 ${n} 个功能 · 晨曦 / 主干`]),
    ];
    const day = new Date(pushed * 1000).toLocaleDateString('sv-SE');

    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('day-drawer') });
    const cell = page.locator(`[data-testid=calendar-day][data-date="${day}"]`);

    await page.goto('/home/app/dawn?workflowId=-1');
    await expect.poll(() => itemsOf(page.getByTestId('commit-list'))).toEqual(together);
    await page.getByTestId('view-toggle').getByText('日历').click();
    // Four commits that day: 发布 got all four, 主干 three of them.
    await expect.poll(() => cell.getAttribute('data-count')).toBe('4');
    expect(await chipsOf(cell)).toEqual(['发布：4', '主干：3']);
    // Each workflow has its tab's colour, here and on its own calendar, and the legend follows the tabs.
    expect(await page.locator('.calendar-legend .ant-tag').allInnerTexts()).toEqual(['主干', '发布']);
    const summaryColors = await colorsOf(cell);
    expect(new Set(Object.values(summaryColors)).size).toBe(2);
    await cell.click();
    await expect.poll(() => drawer.locator('.ant-drawer-title').innerText()).toContain(day);
    await expect.poll(() => itemsOf(drawer)).toEqual(together);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await page.getByTestId('calendar-mode').getByText('年').click();
    await expect
      .poll(() => page.locator(`[data-testid=calendar-month][data-month="${day.slice(0, 7)}"]`).innerText())
      .toContain('共 4 条');
    await page.getByTestId('calendar-mode').getByText('月').click();
    for (const tab of ['发布', '主干']) {
      await page.getByTestId('workflow-tab').filter({ hasText: tab }).click();
      await expect.poll(() => chipsOf(cell)).toEqual([`${tab}：${tab === '发布' ? 4 : 3}`]);
      expect(await colorsOf(cell)).toEqual({ [tab]: summaryColors[tab] });
    }

    // The committer's trend spans the same two workflows: its list, day and counts agree the same way.
    await page.goto(`/trend/${encodeURIComponent(ZHAO.name)}`);
    await expect.poll(() => itemsOf(page.getByTestId('commit-list'))).toEqual(together);
    await page.getByTestId('view-toggle').getByText('日历').click();
    await expect.poll(() => cell.getAttribute('data-count')).toBe('4');
    expect(await chipsOf(cell)).toEqual(['晨曦：4']);
    await cell.click();
    await expect.poll(() => itemsOf(drawer)).toEqual(together);
    await context.close();
  });

  it('a committer in two projects: the project picked on the trend page filters the calendar counts as it does the list and the day', async () => {
    const { api, adminToken } = world;
    const editor = await api.login(EDITOR.username, EDITOR.password);
    const pushed = todayAt(0);
    // 北辰 (the editor's only) gets two of her commits today, 南风 (the viewer may see it too) three.
    for (const [appName, path, features, viewUserIds] of [
      ['北辰', 'north', ['登录页', '支付页'], []],
      ['南风', 'south', ['关卡一', '关卡二', '关卡三'], [world.viewerId]],
    ] as const) {
      const repo = GitRepo.init(`${world.client.dir}-${path}`);
      for (const [n, feature] of features.entries())
        repo.commit({ message: `feat: ${feature}`, author: SUN, time: pushed + n });
      const appId = await api.createApp(adminToken, {
        appName,
        path,
        editUserIds: [world.editorId],
        viewUserIds: [...viewUserIds],
      });
      const id = (
        await api.call<{ id: number }>('POST', '/api/workflow', editor, {
          appId,
          tabName: '主干',
          contentType: 'default',
          repoType: 'git',
          repoPath: repo.url,
        })
      ).id;
      expect(await firstSync(api, editor, appId, id)).toEqual({ error: null, items: features.length });
    }
    const south = ['关卡三 · 南风 / 主干', '关卡二 · 南风 / 主干', '关卡一 · 南风 / 主干'];
    const north = ['支付页 · 北辰 / 主干', '登录页 · 北辰 / 主干'];
    const day = new Date(pushed * 1000).toLocaleDateString('sv-SE');

    const { context, page } = await newPage(browser, world.server.url);
    await signIn(page, EDITOR);
    const list = page.getByTestId('commit-list');
    const project = page.getByTestId('filter-project');
    const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('day-drawer') });
    const cell = page.locator(`[data-testid=calendar-day][data-date="${day}"]`);
    const month = page.locator(`[data-testid=calendar-month][data-month="${day.slice(0, 7)}"]`);

    await page.goto(`/trend/${encodeURIComponent(SUN.name)}`);
    await expect.poll(() => itemsOf(list).then((items) => items.toSorted())).toEqual([...south, ...north].toSorted());
    await pickOption(page, project, '南风');
    await expect.poll(() => itemsOf(list)).toEqual(south);
    await page.getByTestId('view-toggle').getByText('日历').click();
    // The day counts what the list shows, not her five commits of both projects.
    await expect.poll(() => cell.getAttribute('data-count')).toBe('3');
    expect(await chipsOf(cell)).toEqual(['南风：3']);
    await cell.click();
    await expect.poll(() => itemsOf(drawer)).toEqual(south);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // On the calendar the projects of its month are offered; another one counts only its own, month and year alike.
    await pickOption(page, project, '北辰');
    await expect.poll(() => cell.getAttribute('data-count')).toBe('2');
    expect(await chipsOf(cell)).toEqual(['北辰：2']);
    await clickAtRest(page.getByTestId('calendar-mode').getByText('年'));
    await expect.poll(() => month.innerText()).toContain('共 2 条');
    await page.getByTestId('view-toggle').getByText('列表').click();
    await expect.poll(() => itemsOf(list)).toEqual(north);
    await context.close();

    // A viewer of 南风 alone counts only 南风: the filter narrows what the server lets them see, never widens it.
    const viewer = await newPage(browser, world.server.url);
    await signIn(viewer.page, VIEWER);
    await viewer.page.goto(`/trend/${encodeURIComponent(SUN.name)}`);
    await viewer.page.getByTestId('view-toggle').getByText('日历').click();
    const viewerCell = viewer.page.locator(`[data-testid=calendar-day][data-date="${day}"]`);
    await expect.poll(() => viewerCell.getAttribute('data-count')).toBe('3');
    const viewerProject = viewer.page.getByTestId('filter-project');
    const offered = (await openDropdown(viewer.page, viewerProject)).locator('.ant-select-item-option');
    await expect.poll(() => offered.allInnerTexts()).toEqual(['南风']);
    await pickOption(viewer.page, viewerProject, '南风');
    expect(await viewerCell.getAttribute('data-count')).toBe('3');
    expect(await chipsOf(viewerCell)).toEqual(['南风：3']);
    await viewer.context.close();
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
