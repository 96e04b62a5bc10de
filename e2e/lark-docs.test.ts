import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLarkFake, type LarkFake } from '@release/fakes';
import type { WorkflowRow } from '@release/contract';
import { clickAtRest, expectToastShown, recordToasts } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage } from './helpers/browser.ts';
import { larkEnv } from './helpers/fakes.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { signIn } from './helpers/workflow-world.ts';

const DOCS_BASE_URL = 'https://example.feishu.cn';
const ENCRYPT_KEY = 'e2e-encrypt-key';

describe('the wiki page and document events in a real browser, against the Lark fake', () => {
  let lark: LarkFake;
  let server: ServerProcess;
  let browser: Browser;
  let handbook: { node_token: string; obj_token: string };
  let chapter: { node_token: string };

  beforeAll(async () => {
    lark = await startLarkFake({
      app: { encryptKey: ENCRYPT_KEY },
      wikiSpaces: [
        { space_id: '7101', name: '研发知识库' },
        { space_id: '7102', name: '美术规范' },
      ],
    });
    handbook = lark.addWikiNode({ space_id: '7101', title: '发布手册' });
    chapter = lark.addWikiNode({ space_id: '7101', title: '打包与签名', parent_node_token: handbook.node_token });
    lark.addWikiNode({ space_id: '7101', title: '常见问题', obj_type: 'sheet' });
    server = await startServerProcess({
      ...larkEnv(lark),
      LARK_VERIFICATION_TOKEN: lark.app.verificationToken,
      LARK_ENCRYPT_KEY: ENCRYPT_KEY,
      LARK_DOCS_BASE_URL: DOCS_BASE_URL,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await lark?.close();
  });

  it('browses a space: expanding a page reads its children from Lark, and each opens in Lark (at 768 px)', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 768, height: 1024 });
    await signIn(page, E2E_ADMIN);
    await page.goto('/home/app');
    await page.getByTestId('header-menu').getByText('文档').click();
    await page.waitForURL(/\/home\/wiki/);
    const tree = page.getByTestId('wiki-tree');
    await expect
      .poll(() => tree.getByTestId('wiki-node').allInnerTexts())
      .toEqual([expect.stringContaining('发布手册'), expect.stringContaining('常见问题')]);
    expect(await page.getByTestId('wiki-space-select').innerText()).toContain('研发知识库');
    // Children are not read until the page is expanded.
    expect(lark.requests.filter((r) => r.route === 'wiki.node.list' && r.query.parent_node_token)).toHaveLength(0);
    await tree.locator('.ant-tree-treenode').filter({ hasText: '发布手册' }).locator('.ant-tree-switcher').click();
    const child = tree.getByTestId('wiki-node-link').filter({ hasText: '打包与签名' });
    await child.waitFor();
    expect(await child.getAttribute('href')).toBe(`${DOCS_BASE_URL}/wiki/${chapter.node_token}`);
    expect(await child.getAttribute('target')).toBe('_blank');
    expect(
      lark.requests.filter((r) => r.route === 'wiki.node.list' && r.query.parent_node_token === handbook.node_token),
    ).toHaveLength(1);
    await page.screenshot({ path: '.tmp/e2e-wiki-768.png' });
    await context.close();
  });

  it('follows a document from a wiki workflow, and its edit in Lark opens as a before/after diff', async () => {
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const appId = await api.createApp(admin, { appName: '知识库应用', path: 'docs', appType: 'doc' });
    await api.call('POST', '/api/workflow', admin, {
      appId,
      tabName: '发布文档',
      contentType: 'custom',
      manageType: 'wiki',
      enterpriseName: '研发知识库',
    });
    const workflow = (await api.call<WorkflowRow[]>('GET', `/api/workflow?appId=${appId}`, admin))[0];

    const { context, page } = await newPage(browser, server.url);
    await signIn(page, E2E_ADMIN);
    await page.goto(`/home/app/docs?workflowId=${workflow?.id ?? 0}`);
    await page.getByTestId('workflow-lark-docs').click();
    const modal = page.getByTestId('lark-docs-modal');
    const input = modal.getByTestId('lark-docs-input');
    // A line that is not a Lark link is named, and what was typed stays to be corrected.
    await input.fill(`${DOCS_BASE_URL}/wiki/${handbook.node_token}\n周报在哪里`);
    await recordToasts(page);
    await clickAtRest(page.getByTestId('lark-docs-save'));
    await expectToastShown(page, '无法识别的飞书文档地址，请粘贴文档、知识库或文件夹的链接：周报在哪里');
    expect(await input.inputValue()).toContain('周报在哪里');
    await input.fill(`${DOCS_BASE_URL}/wiki/${handbook.node_token}`);
    await clickAtRest(page.getByTestId('lark-docs-save'));
    await modal.waitFor({ state: 'detached' });
    expect(lark.subscriptions).toContainEqual(
      expect.objectContaining({ fileToken: handbook.obj_token, fileType: 'docx' }),
    );

    // Someone edits the page twice in Lark; Lark pushes encrypted, signed events.
    const url = `${server.url}/api/lark/event`;
    expect(
      await lark.emitDriveEvent({
        eventType: 'drive.file.edit_v1',
        fileToken: handbook.obj_token,
        content: '1. 打包\n2. 上传',
        url,
      }),
    ).toMatchObject({ status: 'delivered' });
    // Answered at once, handled by the server's job runner: the second edit comes after the first was read.
    const listed = async () =>
      (
        await api.call<{ list: unknown[] }>(
          'GET',
          `/api/commit_log_list?workflowIds=${workflow?.id ?? 0}&onlyCliff=false`,
          admin,
        )
      ).list.length;
    await expect.poll(listed).toBe(1);
    expect(
      await lark.emitDriveEvent({
        eventType: 'drive.file.edit_v1',
        fileToken: handbook.obj_token,
        content: '1. 打包\n2. 签名\n3. 上传',
        url,
      }),
    ).toMatchObject({ status: 'delivered' });

    await page.reload();
    const items = page.getByTestId('commit-item');
    await expect.poll(() => items.count()).toBe(2);
    const latest = items.first();
    expect(await latest.getByTestId('commit-wiki-event').innerText()).toContain('修改文档');
    // Shown as a 文档 change (SPEC §3 commit message types), titled by what happened to which page.
    expect(await latest.getByTestId('commit-message').innerText()).toBe('修改文档：发布手册');
    expect(await latest.locator('.ant-tag').first().innerText()).toContain('文档');
    await latest.getByTestId('commit-wiki-diff').click();
    const diff = page.getByTestId('wiki-diff');
    // SPEC §9: the modal is 80vw wide (1024 px of 1280).
    await expect
      .poll(async () => Math.round((await page.locator('.ant-modal').filter({ has: diff }).boundingBox())?.width ?? 0))
      .toBe(1024);
    expect(await diff.innerText()).toContain('修改前');
    expect(await diff.getByTestId('wiki-diff-remove').allInnerTexts()).toEqual([expect.stringContaining('2. 上传')]);
    expect(await diff.getByTestId('wiki-diff-add').allInnerTexts()).toEqual([
      expect.stringContaining('2. 签名'),
      expect.stringContaining('3. 上传'),
    ]);
    await page.screenshot({ path: '.tmp/e2e-lark-doc-diff.png' });
    await context.close();
  });

  it('without a Lark app the page tells the admin what to set', async () => {
    const bare = await startServerProcess();
    try {
      const { context, page } = await newPage(browser, bare.url);
      await signIn(page, E2E_ADMIN);
      await page.goto('/home/wiki');
      const empty = page.getByTestId('wiki-not-configured');
      await expect.poll(() => empty.innerText()).toContain('尚未接入飞书');
      expect(await empty.innerText()).toContain('LARK_APP_ID、LARK_APP_SECRET');
      await context.close();
    } finally {
      await bare.stop();
    }
  });
});
