import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstallMessages } from '@release/contract';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';

const TEMPLATE =
  '<!doctype html><html><head><title>安装 - 发布系统</title></head><body><div id="install-root"></div></body></html>';

/** The boot data of a served install page (the data block, never run). */
function bootOf(html: string): unknown {
  const json = /<script type="application\/json" id="install-boot">(.*?)<\/script>/.exec(html)?.[1];
  return json ? JSON.parse(json) : null;
}

describe.each(testDialects())(
  'install routes serve the install entry with the link’s title and boot data on %s',
  (dialect) => {
    let server: TestServer;
    let dist: string;
    let admin: string;
    let publicPath: string;
    let appId: number;

    beforeAll(async () => {
      dist = fs.mkdtempSync(path.join(os.tmpdir(), 'release-web-'));
      fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>发布系统</title><div id="root"></div>');
      fs.writeFileSync(path.join(dist, 'install.html'), TEMPLATE);
      server = await startTestServer(dialect, { webDistDir: dist });
      admin = await server.adminToken();
      const created = await server.request<{ appId: number }>('POST', '/api/app', {
        token: admin,
        body: { appName: '<b>商城</b> & "测试"', appType: 'native', password: '246810', path: 'shop' },
      });
      appId = created.body.data.appId;
      publicPath = (await server.request<{ publicPath: string }>('GET', `/api/app?appId=${appId}`, { token: admin }))
        .body.data.publicPath;
      await server.request('POST', '/api/app/install_access', { token: admin, body: { appId, publicInstall: true } });
    });
    afterAll(async () => {
      await server?.close();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    it('titles /package, /ios and /android after the app, escaped, and says it is the password page', async () => {
      for (const route of ['/package/shop', '/ios/shop?id=3', '/android/shop']) {
        const res = await fetch(`${server.url}${route}`);
        expect([route, res.status, res.headers.get('content-type')]).toEqual([route, 200, 'text/html; charset=utf-8']);
        const html = await res.text();
        expect(html).toContain('<title>&#60;b&#62;商城&#60;/b&#62; &#38; &#34;测试&#34; - 安装</title>');
        expect(html).toContain('<div id="install-root">');
        // The name's "</b>" cannot end the data block early.
        expect(html).not.toContain('</b>');
        expect(bootOf(html)).toEqual({
          link: 'password',
          message: null,
          app: { appName: '<b>商城</b> & "测试"', appIcon: null, path: 'shop' },
        });
      }
    });

    it('says which links are open, closed or unknown; other pages stay the console', async () => {
      expect(bootOf(await (await fetch(`${server.url}/package/${publicPath}`)).text())).toMatchObject({
        link: 'public',
        app: { path: publicPath },
      });
      const unknown = await (await fetch(`${server.url}/package/nosuch`)).text();
      expect(bootOf(unknown)).toEqual({ link: 'missing', message: InstallMessages.appMissing, app: null });
      expect(unknown).toContain('<title>安装 - 发布系统</title>');
      expect(bootOf(await (await fetch(`${server.url}/package/${'x'.repeat(300)}`)).text())).toMatchObject({
        link: 'missing',
      });
      await server.request('POST', '/api/app/install_access', { token: admin, body: { appId, publicInstall: false } });
      expect(bootOf(await (await fetch(`${server.url}/package/${publicPath}`)).text())).toEqual({
        link: 'closed',
        message: InstallMessages.publicClosed,
        app: null,
      });
      expect(await (await fetch(`${server.url}/home/app/shop`)).text()).toContain('<div id="root">');
    });

    it('serves the device registration result page from the install entry too, titled for it, without boot data', async () => {
      const res = await fetch(`${server.url}/device-enroll/result?id=1&sig=x`);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      const html = await res.text();
      expect(html).toContain('<title>设备注册结果 - 发布系统</title>');
      expect(html).toContain('<div id="install-root">');
      expect(bootOf(html)).toBeNull();
    });
  },
);
