import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../apps/server/src/integrations/git/testing/git-fixture.ts';
import { clickAtRest, openDropdown, pickOption } from './helpers/antd.ts';
import { firstSync } from './helpers/first-sync.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { EDITOR, signIn, startWorkflowWorld, todayAt, VIEWER, type WorkflowWorld } from './helpers/workflow-world.ts';

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

describe('工作流汇总 and the trend calendar in the browser', () => {
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
});
