import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const editorId = await api.createUser(admin, 'editor', 'editor-pass-1', 30);
    const appId = await api.createApp(admin, { appName: '演示应用', path: 'demo', editUserIds: [editorId] });
    const editor = await api.login('editor', 'editor-pass-1');
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

  it('an editor re-signs an ipa version from the modal, sees 重签名成功 and the new version in the list', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'editor', 'editor-pass-1');
    await page.goto('/home/app/demo');
    const rows = page.getByTestId('version-row');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByTestId('version-resign').click();
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
});
