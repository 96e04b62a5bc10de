import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallPage } from '@release/contract';
import { sampleAab, sampleApk, sampleIpa, sampleMacZip } from '@release/inspect/testing/sample-packages.ts';
import { buildZip } from '@release/inspect/testing/zip-writer.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

describe.each(testDialects())('what the install page offers per kind of package on %s', (dialect) => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function createApp(path: string): Promise<number> {
    const { body } = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: { appName: path, appType: 'native', password: '246810', path },
    });
    return body.data.appId;
  }
  async function publish(appId: number, name: string, bytes: Buffer): Promise<number> {
    const key = await transferFile(server, admin, name, bytes);
    const { body } = await server.request<{ id: number }>('POST', '/api/v2/upload_app', {
      token: admin,
      body: { appId, s3Url: key },
    });
    if (body.code !== 200) throw new Error(body.msg);
    return body.data.id;
  }
  const open = async (path: string) =>
    (await server.request<InstallPage>('GET', `/api/app_version?url=${path}&password=246810`)).body.data;

  it('says what each file is and whether a device installs it: ipa, apk, mac zip, web zip and html yes, aab no', async () => {
    const appId = await createApp('kinds');
    const ids = {
      ipa: await publish(appId, 'demo.ipa', sampleIpa()),
      apk: await publish(appId, 'demo.apk', sampleApk({ versionName: '1.0.0', versionCode: 100 })),
      aab: await publish(appId, 'demo.aab', sampleAab({ versionName: '2.0.0', versionCode: 200 })),
      mac: await publish(appId, 'tool.zip', sampleMacZip()),
      zip: await publish(
        appId,
        'site.zip',
        buildZip([{ name: 'index.html', data: '<!doctype html><title>站点</title>' }]),
      ),
      html: await publish(appId, 'page.html', Buffer.from('<!doctype html><title>活动页</title>')),
    };
    const page = await open('kinds');
    const seen = new Map(
      page.versions.map((v) => [v.id, { type: v.nativePackageType, kind: v.packageKind, installable: v.installable }]),
    );
    expect(seen.get(ids.ipa)).toEqual({ type: 'ios', kind: 'ipa', installable: true });
    expect(seen.get(ids.apk)).toEqual({ type: 'android', kind: 'apk', installable: true });
    expect(seen.get(ids.aab)).toEqual({ type: 'android', kind: 'aab', installable: false });
    expect(seen.get(ids.mac)).toEqual({ type: 'mac', kind: 'mac', installable: true });
    expect(seen.get(ids.zip)).toEqual({ type: 'web', kind: 'zip', installable: true });
    expect(seen.get(ids.html)).toEqual({ type: 'web', kind: 'html', installable: true });
    // The bundle is still a file to download, under its own name; only an apk goes to a phone.
    const aab = page.versions.find((v) => v.id === ids.aab);
    expect(aab?.fileName).toBe('demo.aab');
    const file = await fetch(aab?.downloadUrl ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('demo.aab');
  });

  it('keeps the latest apk on the page when twenty bundles were published after it', async () => {
    const appId = await createApp('bundles');
    const apk = await publish(appId, 'shop.apk', sampleApk({ versionName: '1.0.0', versionCode: 100 }));
    const bundles: number[] = [];
    for (let i = 1; i <= 20; i += 1)
      bundles.push(await publish(appId, `shop-${i}.aab`, sampleAab({ versionName: `1.${i}.0`, versionCode: 100 + i })));
    const page = await open('bundles');
    // The twenty newest, then the apk that is older than all of them: newest first.
    expect(page.versions.map((v) => v.id)).toEqual([...bundles.reverse(), apk]);
    expect(page.versions.filter((v) => v.installable).map((v) => v.id)).toEqual([apk]);
  });

  it('lists an app that has only bundles without offering anything to install', async () => {
    const appId = await createApp('onlyaab');
    const aab = await publish(appId, 'only.aab', sampleAab());
    const page = await open('onlyaab');
    expect(page.versions.map((v) => [v.id, v.installable])).toEqual([[aab, false]]);
  });

  it('gives the asked build its details (what the console knows of it), and only that one', async () => {
    const appId = await createApp('details');
    const ipa = await publish(appId, 'demo.ipa', sampleIpa({ version: '3.0.0', build: '300' }));
    const apk = await publish(appId, 'demo.apk', sampleApk({ versionName: '1.0.0', versionCode: 100 }));
    const asked = (await server.request<InstallPage>('GET', `/api/app_version?url=details&password=246810&id=${ipa}`))
      .body.data;
    const rows = new Map((asked.versions.find((v) => v.id === ipa)?.details ?? []).map((d) => [d.label, d.value]));
    expect(rows.get('Bundle ID')).toBe('com.example.demo');
    expect(rows.get('版本号')).toBe('3.0.0');
    expect(rows.get('构建号')).toBe('300');
    expect(rows.get('文件')).toBe('demo.ipa');
    expect(rows.get('描述文件')).toContain('内测 (Ad Hoc)');
    expect(rows.get('证书到期')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(asked.versions.find((v) => v.id === apk)?.details).toBeNull();
    const android = (
      await server.request<InstallPage>('GET', `/api/app_version?url=details&password=246810&id=${apk}`)
    ).body.data.versions.find((v) => v.id === apk);
    expect(new Map(android?.details?.map((d) => [d.label, d.value])).get('包名')).toBe('com.example.shop');
    expect(new Map(android?.details?.map((d) => [d.label, d.value])).get('目标 SDK')).toBe('Android API 34');
  });

  it('tells subscribers which build arrived: its version and build number, or 第 N 版 for a web build', async () => {
    const appId = await createApp('notify');
    const subscriber = await server.createUser({ username: 'subscriber', roleLevel: 20 });
    await server.request('POST', '/api/app', {
      token: admin,
      body: {
        appId,
        appName: 'notify',
        appType: 'native',
        password: '246810',
        path: 'notify',
        distributeUsers: [{ userId: subscriber.userId, permit: 'view' }],
      },
    });
    await server.request('POST', '/api/app_collect', {
      token: subscriber.token,
      body: { appIds: appId, appCollectType: 'subscribe' },
    });
    await publish(appId, 'demo.apk', sampleApk({ versionName: '2.1.0', versionCode: 210 }));
    await publish(appId, 'page.html', Buffer.from('<!doctype html><title>活动页</title>'));
    const messages = await server.request<Array<{ messageInfo: { description: string } }>>(
      'GET',
      '/api/messages?state=NOT_READ',
      { token: subscriber.token },
    );
    expect(messages.body.data.map((m) => m.messageInfo.description).sort()).toEqual([
      'Android 2.1.0 (210) 已发布',
      'Web 第 2 版 已发布',
    ]);
  });
});
