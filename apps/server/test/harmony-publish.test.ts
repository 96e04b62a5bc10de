import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDetail, AppVersionRow } from '@release/contract';
import { sampleHap, sampleHarmonyApp } from '@release/inspect/testing/hap-builder.ts';
import { testDialects } from './helpers/dialects.ts';
import { startHarmonyShop } from './helpers/harmony-shop.ts';
import type { TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

/** HarmonyOS builds become versions like any other kind: through the kind table, the inspector and packageIdentity. */
describe.each(testDialects())('publishing HarmonyOS builds on %s', (dialect) => {
  let server: TestServer;
  let close: () => Promise<void>;
  let editor: { userId: number; token: string };
  let appId: number;

  const publish = async (name: string, bytes: Buffer) => {
    const s3Url = await transferFile(server, editor.token, name, bytes);
    return server.request<AppVersionRow>('POST', '/api/v2/upload_app', { token: editor.token, body: { appId, s3Url } });
  };

  beforeAll(async () => {
    ({ server, editor, appId, close } = await startHarmonyShop(dialect, { path: 'harmony-shop' }));
  });
  afterAll(async () => {
    await close?.();
  });

  it('a signed .hap becomes a HarmonyOS version with its version, bundle name, label, icon and profile end', async () => {
    const hap = sampleHap({
      versionName: '2.1.0',
      versionCode: 2010000,
      profile: { type: 'release', distributionType: 'enterprise' },
    });
    const published = await publish('entry-default-signed.hap', hap);
    expect(published.body).toMatchObject({
      code: 200,
      data: {
        nativePackageType: 'harmony',
        appVersion: '2.1.0',
        build: '2010000',
        bundleId: 'com.example.harmony',
        fileName: 'entry-default-signed.hap',
      },
    });
    expect(published.body.data.expireDate).toBeGreaterThan(Date.now());
    const detail = await server.request<AppDetail>('GET', `/api/app?appId=${appId}`, { token: editor.token });
    expect(detail.body.data.bundleIds.harmony).toEqual(['com.example.harmony']);
    expect(detail.body.data.appIcon).toBeTruthy();
  });

  it('refuses a build of another bundle name, saying so in Chinese', async () => {
    const other = await publish('other.hap', sampleHap({ bundleName: 'com.example.other' }));
    expect(other.status).toBe(409);
    expect(other.body.msg).toBe(
      '包名不一致：该应用的 HarmonyOS 包名为 com.example.harmony，此安装包为 com.example.other',
    );
  });

  it('a packed .app is one version; modules of different versions in it are refused, naming them', async () => {
    const packed = sampleHarmonyApp({
      'entry.hap': sampleHap({ versionCode: 2020000, versionName: '2.2.0', dependencies: ['lib'] }),
      'lib.hsp': sampleHap({ versionCode: 2020000, versionName: '2.2.0', moduleName: 'lib', moduleType: 'shared' }),
    });
    expect((await publish('shop.app', packed)).body).toMatchObject({
      code: 200,
      data: { nativePackageType: 'harmony', appVersion: '2.2.0', build: '2020000' },
    });
    const mixed = sampleHarmonyApp({
      'entry.hap': sampleHap({ versionCode: 2030000 }),
      'lib.hsp': sampleHap({ versionCode: 2020000, moduleName: 'lib', moduleType: 'shared' }),
    });
    const refused = await publish('mixed.app', mixed);
    expect([refused.status, refused.body.msg]).toEqual([
      400,
      '这些模块不属于同一应用的同一版本：lib.hsp 的 versionCode 2020000 与 entry.hap 的 2030000 不同',
    ]);
  });
});
