import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallPage } from '@release/contract';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { e2eDatabases, sizesFor } from './helpers/server-process.ts';
import {
  ALICE,
  BOB,
  EDITOR,
  signIn,
  startWorkflowWorld,
  todayAt,
  VIEWER,
  type WorkflowWorld,
} from './helpers/workflow-world.ts';

/**
 * Issue 19 in the browser: two builds published with the commits they were made from; a viewer opens 变更 on the
 * newer one and reads exactly the commits between them, with where the build's commit came from.
 */
describe.each(e2eDatabases())('变更 of a build lists the commits since the build before it (%s)', (database) => {
  let world: WorkflowWorld;
  let browser: Browser;
  let newer = 0;
  let head = '';
  let apk: (versionName: string, versionCode: number) => Buffer;
  let editor = '';
  let sync: () => Promise<unknown>;

  beforeAll(async () => {
    world = await startWorkflowWorld({ database });
    editor = await world.api.login(EDITOR.username, EDITOR.password);
    const workflowId = (
      await world.api.call<{ id: number }>('POST', '/api/workflow', editor, {
        appId: world.appId,
        tabName: '客户端',
        contentType: 'default',
        repoType: 'git',
        repoPath: world.client.url,
        defaultBranch: 'main',
      })
    ).id;
    sync = () => world.api.call('POST', `/api/workflow/sync?id=${workflowId}`, editor, {});
    await sync();
    apk = (versionName: string, versionCode: number) =>
      sampleApk({ label: '星际舰队', packageName: 'com.studio.starfleet', versionName, versionCode });
    await world.api.publishPackage(editor, world.appId, 'StarFleet-1.5.0.apk', apk('1.5.0', 310), {
      commit: world.client.head(),
    });
    // The viewer downloads 1.5.0 from the install page (signed in: the install statistics count it for them).
    const viewer = await world.api.login(VIEWER.username, VIEWER.password);
    const offered = await world.api.call<InstallPage>(
      'GET',
      `/api/app_version?url=${world.appPath}&password=135790`,
      viewer,
    );
    const file = await fetch(new URL(offered.versions[0]?.downloadUrl ?? '', world.server.url));
    expect([file.status, (await file.arrayBuffer()).byteLength > 0]).toEqual([200, true]);
    world.client.commit({ message: 'feat: 新的关卡编辑器', author: ALICE, time: todayAt(120), files: { 'e.ts': '1' } });
    world.client.commit({ message: 'fix: 修复切后台闪退', author: BOB, time: todayAt(150), files: { 'b.ts': '2' } });
    head = world.client.head();
    newer = (
      await world.api.publishPackage(editor, world.appId, 'StarFleet-1.6.0.apk', apk('1.6.0', 320), {
        commit: head.slice(0, 12),
        branch: 'main',
      })
    ).id;
    // The build named a commit the server had not pulled yet: the sync brings it (a queued one, or this).
    await sync();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  for (const viewport of sizesFor(database, [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])) {
    it(`a viewer reads the two new commits and the build's source (${viewport.width} px)`, async () => {
      const { context, page } = await newPage(browser, world.server.url, viewport);
      await signIn(page, VIEWER);
      await page.goto(`/home/app/${world.appPath}`);
      const row = page.locator(`[data-testid="version-row"][data-version-id="${newer}"]`);
      await row.getByTestId('version-changes-open').click();
      const drawer = page.getByTestId('version-changes');
      await drawer.getByTestId('changes-workflow').waitFor();
      expect(await drawer.getByTestId('changes-base').innerText()).toBe('相对上一版本 1.5.0 (310)');
      const source = drawer.getByTestId('changes-source');
      expect(await source.innerText()).toContain(head.slice(0, 7));
      expect(await source.innerText()).toContain('上传时指定');
      expect(await drawer.getByTestId('changes-count').innerText()).toBe('2 个提交');
      // Newest first, each with the commit-type label the update list uses and its author.
      const entries = await drawer.getByTestId('change-entry').allInnerTexts();
      expect(entries).toHaveLength(2);
      expect(entries[0]).toMatch(/Bug修改[\s\S]*修复切后台闪退[\s\S]*王小明/);
      expect(entries[1]).toMatch(/新增\/变更[\s\S]*新的关卡编辑器[\s\S]*alice/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await context.close();
    });
  }

  it('a tester on the install page reads 本版本更新 under the build offered (390 px)', async () => {
    const { context, page } = await newPage(browser, world.server.url, { width: 390, height: 844 });
    await page.goto(`/package/${world.appPath}`);
    await page.getByTestId('install-password').fill('135790');
    await page.getByTestId('install-submit').click();
    const changes = page.getByTestId('install-changes');
    await changes.waitFor();
    expect(await changes.getByTestId('install-changes-since').innerText()).toBe('相对上一版本 1.5.0 (310)');
    expect(await changes.getByTestId('install-changes-group').locator('strong').innerText()).toBe('客户端');
    expect(await changes.getByTestId('install-change').allInnerTexts()).toEqual([
      'fix: 修复切后台闪退 · 王小明',
      'feat: 新的关卡编辑器 · alice',
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('the link of a version announcement opens its 变更; the viewer switches to the changes since their download (390 px)', async () => {
    world.client.commit({ message: 'perf: 加快启动', author: ALICE, time: todayAt(180), files: { 's.ts': '1' } });
    await sync();
    const newest = (
      await world.api.publishPackage(editor, world.appId, 'StarFleet-1.7.0.apk', apk('1.7.0', 330), {
        commit: world.client.head(),
      })
    ).id;
    const { context, page } = await newPage(browser, world.server.url, { width: 390, height: 844 });
    await signIn(page, VIEWER);
    await page.goto(`/home/app/${world.appPath}?changes=${newest}`);
    const drawer = page.getByTestId('version-changes');
    await drawer.getByTestId('changes-workflow').waitFor();
    expect(await drawer.getByTestId('changes-base').innerText()).toBe('相对上一版本 1.6.0 (320)');
    expect(await drawer.getByTestId('change-entry').count()).toBe(1);
    // They downloaded 1.5.0: the switch compares with it, and the three commits since then show.
    await drawer.getByTestId('changes-base-switch').getByText('与我上次安装的版本').click();
    await drawer.getByText('相对你上次下载的 1.5.0 (310)').waitFor();
    expect(await drawer.getByTestId('changes-count').innerText()).toBe('3 个提交');
    const entries = await drawer.getByTestId('change-entry').allInnerTexts();
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatch(/性能优化[\s\S]*加快启动/);
    expect(entries[1]).toContain('修复切后台闪退');
    expect(entries[2]).toContain('新的关卡编辑器');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});
