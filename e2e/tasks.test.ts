import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_ATTACHMENTS_MAX } from '@release/contract';
import { clickAtRest, expectToast, settled } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { gradientPng } from './helpers/png.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { chooseRange, pick } from './helpers/task-view.ts';
import { signIn } from './helpers/workflow-world.ts';

const EDITOR = { username: 'editor', password: 'editor-pass-1' };
const APP_PATH = 'task';
/** A second app whose task view is on from the start, for tests that do not follow the first one. */
const FILES_APP_PATH = 'task-files';
const SEEDED = 21;

/** The count on a tab's badge ('' while none shows), at once: getAttribute would wait the page's timeout for none. */
async function badge(page: Page, type: 'task' | 'bug'): Promise<string> {
  const titles = await page
    .getByTestId(`task-tab-${type}`)
    .locator('.ant-scroll-number')
    .evaluateAll((els) => els.map((el) => el.getAttribute('title') ?? ''));
  return titles.join(' ');
}

/** How many text lines a textarea shows (its inner height over its line height). */
async function textRows(page: Page, testId: string): Promise<number> {
  return page.getByTestId(testId).evaluate((el) => {
    const style = getComputedStyle(el);
    return Math.round(
      (el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight),
    );
  });
}

async function drawerErrors(page: Page): Promise<string[]> {
  return page.getByTestId('task-drawer').locator('.ant-form-item-explain-error').allInnerTexts();
}

describe('the task view of an app, without Lark', () => {
  let server: ServerProcess;
  let browser: Browser;
  const shots = path.resolve(import.meta.dirname, '../.tmp');

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    server = await startServerProcess();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const editorId = await api.createUser(admin, EDITOR.username, EDITOR.password, 30);
    const appId = await api.createApp(admin, { appName: '任务应用', path: APP_PATH, editUserIds: [editorId] });
    const editor = await api.login(EDITOR.username, EDITOR.password);
    const start = Date.now();
    for (let i = 1; i <= SEEDED; i += 1) {
      await api.call('POST', '/api/create_task', editor, {
        appId,
        recordType: 'task',
        summary: `预置任务 ${String(i).padStart(2, '0')}`,
        assigneeIds: [editorId],
        startAt: start,
        due: start + 86_400_000,
      });
    }
    const filesAppId = await api.createApp(admin, {
      appName: '附件应用',
      path: FILES_APP_PATH,
      editUserIds: [editorId],
    });
    await api.call('POST', '/api/task_view', admin, { appId: filesAppId, taskViewEnabled: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an admin turns the task view on, creates a task and a bug through the drawer, comments and pages past 20', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
    await page.goto(`/home/app/${APP_PATH}`);
    // Off by default: the workflow view, and no toggle until the admin turns it on.
    expect(await page.getByTestId('app-view-mode').count()).toBe(0);
    expect(await page.getByTestId('task-view-switch').innerText()).toBe('开启任务视图');
    await page.getByTestId('task-view-switch').click();
    await expectToast(page, '保存成功');
    await page.getByTestId('task-view').waitFor();
    // One 任务视图 control: the view toggle; turning it off lives in the settings menu beside it.
    expect(await page.getByTestId('app-view-mode').innerText()).toContain('任务视图');
    expect(await page.getByTestId('task-view-switch').count()).toBe(0);
    expect(await page.getByTestId('app-view-bar').getByText('任务视图').count()).toBe(1);
    await expect.poll(() => badge(page, 'task')).toBe(String(SEEDED));
    expect(await badge(page, 'bug')).toBe('0');
    expect(await page.getByTestId('task-tab-task').innerText()).toContain('任务清单');
    expect(await page.getByTestId('task-tab-bug').innerText()).toContain('多维表格');

    // Without Lark there are no Lark buttons, and no 文档 in the header.
    expect(await page.getByTestId('task-refresh').isVisible()).toBe(true);
    for (const id of ['task-lark-table', 'task-lark-task-list']) expect(await page.getByTestId(id).count()).toBe(0);
    expect(await page.getByTestId('header-menu').innerText()).not.toContain('文档');

    // 20 a page, 'N items in total', and the 21st on page 2.
    const rows = page.getByTestId('task-table').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(20);
    expect(await page.getByTestId('task-view').locator('.ant-pagination-total-text').innerText()).toBe(
      `共 ${SEEDED} 条`,
    );
    await page.getByTestId('task-view').locator('.ant-pagination-item-2').click();
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('预置任务 01')]);
    await page.getByTestId('task-view').locator('.ant-pagination-item-1').click();

    // A task: every message on an empty submit, then created not_started / high.
    await page.getByTestId('task-create').click();
    const drawer = page.getByTestId('task-drawer');
    await expect.poll(() => drawer.locator('.ant-drawer-title').innerText()).toBe('创建任务');
    expect(await drawer.getByTestId('task-status').count()).toBe(0);
    await clickAtRest(page.getByTestId('task-submit'));
    await expect.poll(() => drawerErrors(page)).toEqual(['请输入!', '请选择负责人!', '请选择开始和结束时间!']);
    await drawer.getByTestId('task-summary').fill('新的登录页');
    await pick(page, 'task-assignees', 'editor');
    await page.keyboard.press('Escape');
    await chooseRange(page, '2026-12-01 09:00', '2026-12-05 18:00');
    await expect.poll(() => drawerErrors(page)).toEqual([]);
    // An attachment goes through the upload flow before the record is saved.
    await drawer
      .locator('input[type=file]')
      .setInputFiles({ name: 'design.png', mimeType: 'image/png', buffer: gradientPng(16, 16) });
    await expect.poll(() => drawer.locator('.ant-upload-list-item-done').innerText()).toContain('design.png');
    await page.getByTestId('task-submit').dblclick();
    await expectToast(page, '创建成功');
    await expect.poll(() => badge(page, 'task')).toBe(String(SEEDED + 1));
    const created = rows.filter({ hasText: '新的登录页' });
    await expect.poll(() => created.count()).toBe(1);
    expect(await created.innerText()).toMatch(/editor[\s\S]*未开始[\s\S]*高/);
    await created.getByTestId('task-row-title').click();
    const attachment = drawer.locator('.ant-upload-list-item-done a', { hasText: 'design.png' });
    const href = (await attachment.getAttribute('href')) ?? '';
    const download = await page.request.get(href);
    expect([download.status(), (await download.body()).equals(gradientPng(16, 16))]).toEqual([200, true]);
    await clickAtRest(page.getByTestId('task-drawer').getByRole('button', { name: '取 消' }));
    await drawer.waitFor({ state: 'hidden' });

    // A bug on the 多维表格 tab: 指派给 instead of 负责人.
    await page.getByTestId('task-tab-bug').click();
    await page.getByTestId('task-create').click();
    await expect.poll(() => drawer.locator('.ant-drawer-title').innerText()).toBe('创建缺陷');
    await clickAtRest(page.getByTestId('task-submit'));
    await expect.poll(() => drawerErrors(page)).toEqual(['请输入!', '请选择指派给!', '请选择开始和结束时间!']);
    await drawer.getByTestId('task-summary').fill('进入关卡闪退');
    await pick(page, 'task-assignees', 'editor');
    await page.keyboard.press('Escape');
    await chooseRange(page, '2026-12-01 09:00', '2026-12-02 09:00');
    await pick(page, 'task-bug-severity', '致命');
    await clickAtRest(page.getByTestId('task-submit'));
    // Created: the drawer closes and the tab counts it (the task's 创建成功 toast may still be showing, so it proves nothing).
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => badge(page, 'bug')).toBe('1');
    const bug = rows.filter({ hasText: '进入关卡闪退' });
    await expect.poll(() => bug.innerText()).toMatch(/新建[\s\S]*致命/);

    // Comments in the edit drawer: empty, add, edit, delete.
    await bug.getByTestId('task-row-title').click();
    await expect.poll(() => drawer.locator('.ant-drawer-title').innerText()).toBe('编辑缺陷');
    await drawer.getByTestId('task-bug-status').waitFor();
    await clickAtRest(drawer.getByTestId('task-comment-submit'));
    await expect
      .poll(() => drawer.getByTestId('task-comments').locator('.ant-form-item-explain-error').allInnerTexts())
      .toEqual(['请输入评论']);
    const commentBox = drawer.getByTestId('task-comment-input');
    // SPEC §9: the comment box is 3 rows high and grows to 10 at most.
    expect(await textRows(page, 'task-comment-input')).toBe(3);
    await commentBox.fill(Array.from({ length: 14 }, (_, i) => `第 ${i + 1} 行`).join('\n'));
    await expect.poll(() => textRows(page, 'task-comment-input')).toBe(10);
    await commentBox.fill('iPhone 12 上必现');
    await clickAtRest(drawer.getByTestId('task-comment-submit'));
    await expectToast(page, '评论成功');
    const comment = drawer.getByTestId('task-comment');
    await expect.poll(() => comment.getByTestId('task-comment-content').allInnerTexts()).toEqual(['iPhone 12 上必现']);
    await comment.getByTestId('task-comment-edit').click();
    await drawer.getByTestId('task-comment-edit-input').fill('iPhone 12 与 13 上必现');
    await clickAtRest(drawer.getByTestId('task-comment-save'));
    await expectToast(page, '修改成功');
    await expect
      .poll(() => comment.getByTestId('task-comment-content').allInnerTexts())
      .toEqual(['iPhone 12 与 13 上必现']);
    await comment.getByTestId('task-comment-delete').click();
    await expect.poll(() => page.locator('.ant-popconfirm:visible').innerText()).toContain('请确认是否删除该评论?');
    await settled(page, '.ant-popconfirm').locator('.ant-btn-primary').click();
    await expectToast(page, '删除成功');
    await expect.poll(() => comment.count()).toBe(0);
    expect(await drawer.getByTestId('task-comments').innerText()).toContain('暂无评论');

    // Any status may be chosen when editing.
    await pick(page, 'task-bug-status', '无法复现');
    await clickAtRest(page.getByTestId('task-submit'));
    await expectToast(page, '保存成功');
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => bug.innerText()).toContain('无法复现');
    await page.screenshot({ path: path.join(shots, 'e2e-tasks.png') });
    await context.close();
  });

  it(`a drawer takes at most ${TASK_ATTACHMENTS_MAX} attachments: the rest of a selection is left out, the limit is said, and the save keeps ${TASK_ATTACHMENTS_MAX}`, async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${FILES_APP_PATH}`);
    await page.getByTestId('app-view-mode').getByText('任务视图').click();
    await page.getByTestId('task-create').click();
    const drawer = page.getByTestId('task-drawer');
    await drawer.getByTestId('task-summary').fill('附件很多的任务');
    await pick(page, 'task-assignees', 'editor');
    await page.keyboard.press('Escape');
    await chooseRange(page, '2026-12-01 09:00', '2026-12-05 18:00');
    // 21 files at once: 20 are uploaded, the 21st is not added (create_task would refuse it: 参数错误：… <=20 项).
    const files = Array.from({ length: TASK_ATTACHMENTS_MAX + 1 }, (_, i) => ({
      name: `shot-${String(i + 1).padStart(2, '0')}.png`,
      mimeType: 'image/png',
      buffer: gradientPng(8, 8 + i),
    }));
    await drawer.locator('input[type=file]').setInputFiles(files);
    const done = drawer.locator('.ant-upload-list-item-done');
    await expect.poll(() => done.count(), { timeout: 90_000 }).toBe(TASK_ATTACHMENTS_MAX);
    expect(await drawer.locator('.ant-upload-list-item').allInnerTexts()).not.toContainEqual(
      expect.stringContaining('shot-21.png'),
    );
    const full = drawer.getByTestId('task-attachments-full');
    expect(await full.innerText()).toBe(
      `每条记录最多 ${TASK_ATTACHMENTS_MAX} 个附件，已达上限；如需添加，请先删除不需要的附件`,
    );
    expect(await drawer.getByTestId('task-attachment-button').isDisabled()).toBe(true);
    // A file chosen once full is not added either.
    await drawer
      .locator('input[type=file]')
      .setInputFiles({ name: 'late.png', mimeType: 'image/png', buffer: gradientPng(4, 4) });
    expect(await drawer.locator('.ant-upload-list-item').count()).toBe(TASK_ATTACHMENTS_MAX);

    // Removing one makes room again.
    await clickAtRest(
      drawer.locator('.ant-upload-list-item', { hasText: 'shot-20.png' }).getByRole('button', { name: '删除文件' }),
    );
    await expect.poll(() => full.count()).toBe(0);
    expect(await drawer.getByTestId('task-attachment-button').isEnabled()).toBe(true);
    await drawer
      .locator('input[type=file]')
      .setInputFiles({ name: 'last.png', mimeType: 'image/png', buffer: gradientPng(4, 4) });
    // All uploaded before the save (one still uploading is refused with 附件上传中): 20 done counts the removed
    // shot-20.png too while it still fades out, so wait for last.png to be done and shot-20.png to be gone.
    await expect.poll(() => done.allInnerTexts()).toContainEqual(expect.stringContaining('last.png'));
    await expect
      .poll(() => drawer.locator('.ant-upload-list-item').allInnerTexts())
      .not.toContainEqual(expect.stringContaining('shot-20.png'));
    await expect.poll(() => done.count()).toBe(TASK_ATTACHMENTS_MAX);
    await clickAtRest(page.getByTestId('task-submit'));
    await drawer.waitFor({ state: 'hidden' });

    // Saved with its 20 files: the reopened drawer lists them, the last one added among them.
    const row = page.getByTestId('task-table').locator('tbody tr.ant-table-row').filter({ hasText: '附件很多的任务' });
    await row.getByTestId('task-row-title').click();
    await expect.poll(() => drawer.locator('.ant-upload-list-item-done').count()).toBe(TASK_ATTACHMENTS_MAX);
    expect(await drawer.locator('.ant-upload-list-item-done').allInnerTexts()).toContainEqual(
      expect.stringContaining('last.png'),
    );
    expect(await drawer.getByTestId('task-attachments-full').count()).toBe(1);
    await context.close();
    // 22 uploads of four requests each: longer than a usual scenario on a loaded machine.
  }, 180_000);

  it('an editor at 768 px switches to the task view and opens the drawer without sideways scrolling', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1000 });
    await signIn(page, EDITOR);
    await page.goto(`/home/app/${APP_PATH}`);
    await page.getByTestId('app-view-mode').getByText('任务视图').click();
    await page.getByTestId('task-view').waitFor();
    expect(await page.getByTestId('task-view-switch').count()).toBe(0);
    await expect.poll(() => badge(page, 'task')).toBe(String(SEEDED + 1));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByTestId('task-create').click();
    const drawer = page.getByTestId('task-drawer');
    await drawer.getByTestId('task-summary').waitFor();
    // Once slid in, the drawer takes the whole width of a phone, no more.
    const edges = async () => {
      const box = await drawer.boundingBox();
      return [Math.round(box?.x ?? -1), Math.round((box?.x ?? 0) + (box?.width ?? 0))];
    };
    await expect.poll(edges).toEqual([0, 768]);
    await clickAtRest(page.getByTestId('task-submit'));
    await expect.poll(() => drawerErrors(page)).toEqual(['请输入!', '请选择负责人!', '请选择开始和结束时间!']);
    await page.screenshot({ path: path.join(shots, 'e2e-tasks-768.png') });
    await context.close();
  });
});
