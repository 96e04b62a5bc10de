import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow, InstallPage } from '@release/contract';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { testDialects } from './helpers/dialects.ts';
import { testStore } from './helpers/s3-server.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);
const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals';
const page = Buffer.from(
  '<!doctype html><meta charset="utf-8"><title>活动页</title><p id="out">活动页</p><script>document.title = "运行了"</script>',
);

describe.each(combos)('web packages on %s with the %s store: 打开 and 下载', (dialect, store) => {
  let server: TestServer;
  let editor: string;
  let closeS3: (() => Promise<void>) | undefined;
  let html: AppVersionRow;
  let zip: AppVersionRow;
  let versions: InstallPage['versions'];

  beforeAll(async () => {
    const storage = await testStore(store);
    closeS3 = storage.close;
    server = await startTestServer(dialect, { blobs: storage.blobs });
    const admin = await server.adminToken();
    const user = await server.createUser({ username: 'editor', roleLevel: 30 });
    editor = user.token;
    const created = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: {
        appName: '活动',
        appType: 'native',
        password: '135790',
        path: 'event',
        distributeUsers: [{ userId: user.userId, permit: 'edit' }],
      },
    });
    const appId = created.body.data.appId;
    const publish = async (name: string, bytes: Buffer) => {
      const fileKey = await transferFile(server, editor, name, bytes);
      const res = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
        token: editor,
        body: { appId, s3Url: fileKey },
      });
      expect(res.body.code).toBe(200);
      return res.body.data;
    };
    html = await publish('活动页.html', page);
    zip = await publish('site.zip', buildZip([{ name: 'index.html', data: '<!doctype html><title>站点</title>' }]));
    const install = await server.request<InstallPage>('GET', '/api/app_version?url=event&password=135790');
    versions = install.body.data.versions;
  });
  afterAll(async () => {
    await server?.close();
    await closeS3?.();
  });

  it('下载 of an html package downloads the file (it was refused as 参数错误 on the local store)', async () => {
    for (const url of [html.cdnUrl, versions.find((v) => v.id === html.id)?.downloadUrl ?? '']) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment;.*filename\*=UTF-8''%E6%B4%BB%E5%8A%A8%E9%A1%B5\.html/,
      );
      expect(Buffer.from(await res.arrayBuffer()).equals(page)).toBe(true);
      if (store === 'local') {
        expect(res.headers.get('content-security-policy')).toBe(SANDBOX);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }
    }
  });

  it('打开 shows the page in the browser, sandboxed in its own origin (no allow-same-origin), on either store', async () => {
    const openUrl = versions.find((v) => v.id === html.id)?.openUrl;
    expect(openUrl).toMatch(/\/api\/app_version\/open\?id=\d+&expires=\d+&sig=/);
    const res = await fetch(openUrl ?? '');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(res.headers.get('content-security-policy')).toBe(SANDBOX);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(page)).toBe(true);
  });

  it('a changed or foreign 打开 link is refused, and a web zip has no 打开 (it is downloaded as a zip)', async () => {
    const openUrl = new URL(versions.find((v) => v.id === html.id)?.openUrl ?? '');
    openUrl.searchParams.set('id', String(zip.id));
    const forged = await fetch(openUrl);
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { msg: string }).msg).toBe('链接已过期或签名无效，请刷新安装页面后重试');

    const site = versions.find((v) => v.id === zip.id);
    expect(site?.openUrl).toBeNull();
    const res = await fetch(site?.downloadUrl ?? '');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });
});
