import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createApi } from './helpers/api.ts';
import { launchBrowser, newPage, signIn } from './helpers/browser.ts';
import { gradientPng } from './helpers/png.ts';
import { E2E_ADMIN, e2eDatabases, startServerProcess, type ServerProcess, sizesFor } from './helpers/server-process.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const REFUSED = '图片或视频链接无效或已过期，请刷新页面后重试';

/** The /api/media pictures of the page once they have all loaded (src and natural width), at least `atLeast` of them. */
async function loadedMedia(page: Page, atLeast: number): Promise<Array<{ src: string; width: number }>> {
  const read = () =>
    page.locator('img[src*="/api/media/"]').evaluateAll((images) =>
      images.map((img) => ({
        src: (img as HTMLImageElement).src,
        width: (img as HTMLImageElement).complete ? (img as HTMLImageElement).naturalWidth : 0,
      })),
    );
  await expect
    .poll(async () => {
      const images = await read();
      return images.length >= atLeast && images.every((i) => i.width > 0);
    })
    .toBe(true);
  return read();
}

// Icons and screenshots reach members through signed links; the bare address of the same file is refused.
describe.each(e2eDatabases())('media of an app in the browser (%s)', (database) => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServerProcess({}, { database });
    browser = await launchBrowser();
    const api = createApi(server.url);
    const admin = await api.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const viewerId = await api.createUser(admin, 'viewer', 'viewer-pass-1', 20);
    await api.createUser(admin, 'outsider', 'outsider-pass-1', 20);
    const appId = await api.createApp(admin, { appName: '星图', path: 'stars', viewUserIds: [viewerId] });
    const upload = async (type: 'app' | 'media', name: string, bytes: Buffer) => {
      const form = new FormData();
      form.append('type', type);
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
      const res = await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { token: admin }, body: form });
      return ((await res.json()) as { data: { url: string } }).data.url;
    };
    const icon = await upload('app', 'icon.png', gradientPng(96, 96));
    await api.call('POST', '/api/app', admin, {
      appId,
      appName: '星图',
      appType: 'unity',
      password: '135790',
      path: 'stars',
      appIcon: icon,
      distributeUsers: [{ userId: viewerId, permit: 'view' }],
    });
    await api.publishPackage(
      admin,
      appId,
      'stars.apk',
      sampleApk({ label: '星图', versionName: '2.0.0', versionCode: 200 }),
    );
    await api.call('POST', '/api/workflow', admin, {
      appId,
      tabName: '关卡',
      contentType: 'custom',
      manageType: 'other',
    });
    const [workflow] = await api.call<Array<{ id: number; webhookUrl: string; webhookSecret: string }>>(
      'GET',
      `/api/workflow?appId=${appId}`,
      admin,
    );
    if (!workflow) throw new Error('workflow missing');
    const pushed = await fetch(workflow.webhookUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${workflow.webhookSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: 'level-7', time: Date.now(), author: '策划小李', message: '第七关新地图' }],
      }),
    });
    expect(pushed.status).toBe(200);
    const page = await api.call<{ list: Array<{ id: number }> }>(
      'GET',
      `/api/commit_log_list?workflowIds=${workflow.id}&pageNo=1&pageSize=20`,
      admin,
    );
    const shot = await upload('media', 'map.png', gradientPng(320, 200));
    await api.call('POST', '/api/commit_log/update', admin, {
      id: page.list[0]?.id,
      description: '新地图截图',
      fileUrls: JSON.stringify([shot]),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of sizesFor(database, [PHONE, DESKTOP])) {
    it(`a member sees the icon, the screenshot and the build's icon; an outsider's request for the same file is refused (${viewport.width} px)`, async () => {
      const member = await newPage(browser, server.url, viewport);
      await signIn(member.page, 'viewer', 'viewer-pass-1');
      await member.page.goto('/home/app/stars');
      await member.page.getByTestId('media-thumb').first().waitFor();
      // The app icon of the header (and the list at 1280 px) and the update item's screenshot.
      const console = await loadedMedia(member.page, 2);
      expect(console.some((i) => i.width === 320)).toBe(true);
      // The install page: the app icon and the build's icon read from the package.
      await member.page.goto('/package/stars');
      await member.page.getByTestId('install-version').first().waitFor();
      const install = await loadedMedia(member.page, 2);
      await member.context.close();

      const outsider = await newPage(browser, server.url, viewport);
      await signIn(outsider.page, 'outsider', 'outsider-pass-1');
      for (const { src } of [...console, ...install]) {
        const bare = src.split('?')[0] ?? src;
        const answer = await outsider.page.request.get(bare);
        expect([bare, answer.status(), ((await answer.json()) as { msg: string }).msg]).toEqual([bare, 403, REFUSED]);
      }
      // Opened directly in the browser, too.
      const opened = await outsider.page.goto(console[0]?.src.split('?')[0] ?? '/');
      expect(opened?.status()).toBe(403);
      await outsider.context.close();
    });
  }
});
