import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResignOptionMessages } from '@release/contract';
import { makeP12 } from '@release/inspect/testing/identities.ts';
import { sampleSignedIpa, sampleSigningSet } from '../apps/server/src/signing/testing/ipa-builder.ts';
import { clickAtRest, expectToast, pickOption } from './helpers/antd.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

describe('re-signing an ipa version in a real browser', () => {
  let server: ServerProcess;
  let browser: Browser;
  const set = sampleSigningSet('STAR123456');
  let appId: number;
  let editor: string;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const editorId = await api.createUser(admin, 'editor', 'editor-pass-1', 30);
    appId = await api.createApp(admin, { appName: '演示应用', path: 'demo', editUserIds: [editorId] });
    editor = await api.login('editor', 'editor-pass-1');
    await api.publishPackage(editor, appId, 'Demo.ipa', sampleSignedIpa());
    const form = new FormData();
    form.append('password', 'star-pass');
    form.append('p12', new Blob([new Uint8Array(makeP12(set.identity, 'star-pass'))]), 'star.p12');
    form.append('profiles', new Blob([new Uint8Array(set.mainProfile)]), 'main.mobileprovision');
    form.append('profiles', new Blob([new Uint8Array(set.wildcardProfile)]), 'wildcard.mobileprovision');
    const uploaded = (await (
      await fetch(`${server.url}/api/cert_upload`, { method: 'POST', headers: { token: admin }, body: form })
    ).json()) as { code: number; msg: string };
    expect([uploaded.code, uploaded.msg]).toEqual([200, 'success']);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an editor re-signs an ipa version from the modal at 1280 px, sees 重签名成功 and the new version in the list', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'editor', 'editor-pass-1');
    await page.goto('/home/app/demo');
    const rows = page.getByTestId('version-row');
    await expect.poll(() => rows.count()).toBe(1);
    await clickAtRest(rows.first().getByTestId('version-resign'));
    await pickOption(
      page,
      page.getByTestId('resign-certificate'),
      'Apple Development: 韩梅梅 (STAR123456)（包含此应用的描述文件）',
      { exact: false },
    );
    await clickAtRest(page.getByTestId('resign-start'));
    await expect
      .poll(() => page.getByTestId('resign-done').allInnerTexts())
      .toEqual([expect.stringContaining('1.2.3 (45) 重签名成功')]);
    await expectToast(page, '1.2.3 (45) 重签名成功');
    expect(await page.getByTestId('resign-progress').getAttribute('data-percent')).toBe('100');
    await clickAtRest(page.getByTestId('resign-close'));
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.first().getByTestId('version-note').innerText()).toContain(
      '由版本 #1 1.2.3 (45) 使用证书「Apple Development: 韩梅梅 (STAR123456)」重签名',
    );
    await context.close();
  });

  it('at 390 px re-signs with a new bundle id, version and given entitlements from 更多选项: a wrong version is refused in Chinese, the new version notes what changed', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
    await signIn(page, 'editor', 'editor-pass-1');
    await page.goto('/home/app/demo');
    const rows = page.getByTestId('version-row');
    await expect.poll(() => rows.count()).toBe(2);
    await clickAtRest(rows.last().getByTestId('version-resign'));
    await pickOption(
      page,
      page.getByTestId('resign-certificate'),
      'Apple Development: 韩梅梅 (STAR123456)（包含此应用的描述文件）',
      { exact: false },
    );
    await clickAtRest(page.getByTestId('resign-more').getByText('更多选项（可选）'));
    await page.getByTestId('resign-bundle-id').fill('com.example.renamed');
    await page.getByTestId('resign-version').fill('1.2.3.4');
    await page
      .getByTestId('resign-entitlements')
      .fill(
        '<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>get-task-allow</key><true/></dict></plist>',
      );
    await clickAtRest(page.getByTestId('resign-start'));
    await expect.poll(() => page.getByText(ResignOptionMessages.version).count()).toBe(1);
    await page.getByTestId('resign-version').fill('2.0.0');
    await clickAtRest(page.getByTestId('resign-start'));
    await expect
      .poll(() => page.getByTestId('resign-done').allInnerTexts())
      .toEqual([expect.stringContaining('2.0.0 (45) 重签名成功')]);
    await clickAtRest(page.getByTestId('resign-close'));
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.first().getByTestId('version-note').innerText()).toContain('由版本 #1 1.2.3 (45)');
    expect(await rows.first().innerText()).toContain('2.0.0');
    // The whole note (the list folds it after three lines at this width) says what changed from which version.
    const answer = (await (
      await fetch(`${server.url}/api/app_versions?appId=${appId}&pageNo=1&pageSize=10`, { headers: { token: editor } })
    ).json()) as { data: Array<{ description: string; bundleId: string }> };
    expect(answer.data[0]).toMatchObject({
      bundleId: 'com.example.renamed',
      description:
        '由版本 #1 1.2.3 (45) 使用证书「Apple Development: 韩梅梅 (STAR123456)」重签名；Bundle ID：com.example.demo → com.example.renamed；版本号：1.2.3 → 2.0.0；Entitlements：使用给定的（1 项）',
    });
    await context.close();
  });
});
