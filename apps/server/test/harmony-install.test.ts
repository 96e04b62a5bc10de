import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersionRow, InstallPage } from '@release/contract';
import { signHarmonyManifest, verifyHarmonyManifest } from '@release/inspect';
import { harmonyDeveloperKey, sampleHap, type HapProfileOptions } from '@release/inspect/testing/hap-builder.ts';
import { testDialects } from './helpers/dialects.ts';
import { startHarmonyShop } from './helpers/harmony-shop.ts';
import type { TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);
const PUBLIC = 'https://release.example';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The install page of HarmonyOS builds: each module served, the enterprise manifest, a debug build's devices and hdc. */
describe.each(combos)('installing HarmonyOS builds on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let close: () => Promise<void>;
  let editor: { userId: number; token: string };
  let appId: number;
  let versionCode = 4000000;

  /** Behind PUBLIC (as behind nginx with HTTPS) links name it; the test talks to the server itself. */
  const local = (url: string) => url.replace(PUBLIC, server.url);
  const modulesOf = (profile: HapProfileOptions) => {
    versionCode += 1;
    return {
      'entry-default-signed.hap': sampleHap({ versionCode, versionName: '4.0.0', dependencies: ['lib'], profile }),
      'lib-default-signed.hsp': sampleHap({
        versionCode,
        versionName: '4.0.0',
        moduleName: 'lib',
        moduleType: 'shared',
        profile,
      }),
    };
  };
  const publish = async (files: Record<string, Buffer>, attachments: Record<string, string> = {}) => {
    const keys = [];
    for (const [name, bytes] of Object.entries(files)) keys.push(await transferFile(server, editor.token, name, bytes));
    const attachFileUrls = [];
    for (const [name, text] of Object.entries(attachments))
      attachFileUrls.push(await transferFile(server, editor.token, name, Buffer.from(text), 'attachment'));
    const [s3Url, ...moduleFileUrls] = keys;
    const answer = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url, moduleFileUrls, attachFileUrls },
    });
    expect(answer.body.msg).toBe('success');
    return answer.body.data;
  };
  const pageVersion = async (id: number) => {
    const page = await server.request<InstallPage>(
      'GET',
      `/api/app_version?url=harmony-install&password=135790&id=${id}`,
    );
    expect(page.status).toBe(200);
    return page.body.data.versions[0];
  };
  const download = async (url: string) => {
    const response = await fetch(local(url));
    return {
      status: response.status,
      bytes: Buffer.from(await response.arrayBuffer()),
      type: response.headers.get('content-type'),
    };
  };

  beforeAll(async () => {
    ({ server, editor, appId, close } = await startHarmonyShop(dialect, {
      path: 'harmony-install',
      store,
      publicUrl: PUBLIC,
    }));
  });
  afterAll(async () => {
    await close?.();
  });

  it('a debug build lists its devices, its modules (each downloadable as uploaded) and the hdc command', async () => {
    const files = modulesOf({ type: 'debug', devices: ['UDID-PHONE-1', 'UDID-TABLET-2'] });
    const version = await publish(files);
    const shown = await pageVersion(version.id);
    expect(shown).toMatchObject({
      installable: true,
      installUrl: null,
      devices: ['UDID-PHONE-1', 'UDID-TABLET-2'],
      hdcCommand: 'hdc install -r entry-default-signed.hap lib-default-signed.hsp',
      installHint: null,
    });
    expect(shown?.modules.map((m) => [m.name, m.type, m.fileName])).toEqual([
      ['entry', 'entry', 'entry-default-signed.hap'],
      ['lib', 'shared', 'lib-default-signed.hsp'],
    ]);
    for (const [index, bytes] of Object.values(files).entries()) {
      const got = await download(shown?.modules[index]?.url ?? '');
      expect([got.status, sha256(got.bytes)]).toEqual([200, sha256(bytes)]);
    }
    // A forged or altered link is refused.
    const forged = await download((shown?.modules[0]?.url ?? '').replace(/sig=[^&]+/, 'sig=forged'));
    expect(forged.status).toBe(403);
  });

  it('a build signed for debugging only is flagged 调试证书 in the console and on the install page; an expired one as expired', async () => {
    const debug = await publish(modulesOf({ type: 'debug', devices: ['UDID-PHONE-1'] }));
    const release = await publish(modulesOf({ type: 'release', distributionType: 'enterprise' }));
    const day = 86_400_000;
    const expired = await publish(
      modulesOf({
        type: 'release',
        distributionType: 'enterprise',
        notBefore: new Date(Date.now() - 30 * day),
        notAfter: new Date(Date.now() - day),
      }),
    );
    expect([debug.debugSigned, release.debugSigned, expired.debugSigned]).toEqual([true, false, false]);
    const list = await server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${appId}&pageNo=1&pageSize=50`, {
      token: editor.token,
    });
    const listed = new Map(list.body.data.map((row) => [row.id, row]));
    expect([debug.id, release.id].map((id) => listed.get(id)?.debugSigned)).toEqual([true, false]);
    expect([await pageVersion(debug.id), await pageVersion(release.id)].map((v) => v?.debugSigned)).toEqual([
      true,
      false,
    ]);
    // The profile's end is the build's: past it, the console and the page say 证书已过期 (isPackageExpired).
    const ended = await pageVersion(expired.id);
    expect(ended?.expireDate).toBeLessThanOrEqual(Date.now() - day + 1000);
    expect(listed.get(expired.id)?.expireDate).toBe(ended?.expireDate);
  });

  it('an enterprise build without a signed manifest says what to upload; with one that fits, the store link serves our manifest', async () => {
    const profile = { type: 'release' as const, distributionType: 'enterprise' };
    const bare = await publish(modulesOf(profile));
    expect(await pageVersion(bare.id)).toMatchObject({
      installUrl: null,
      hdcCommand: null,
      devices: null,
      installHint:
        '企业内部分发需要签名后的安装清单：请管理员在「证书管理 › 鸿蒙签名证书」上传签此安装包的 .p12（服务器用它签名安装清单），或用华为的 manifest-sign-tool 签名 manifest.json5，作为附件随此版本上传',
    });

    const files = modulesOf(profile);
    const hashes = Object.values(files).map(sha256);
    /** The manifest as hpack writes it, signed as manifest-sign-tool signs it (with the modules' key by default). */
    const signed = (code: number, moduleHashes: string[], key: KeyObject = harmonyDeveloperKey()) => {
      const app = {
        bundleName: 'com.example.harmony',
        bundleType: 'app',
        versionCode: code,
        versionName: '4.0.0',
        label: '鸿蒙商城',
        deployDomain: 'elsewhere.example',
        icons: { normal: 'https://elsewhere.example/icon.png', large: 'https://elsewhere.example/icon.png' },
        minAPIVersion: '5.0.5(17)',
        targetAPIVersion: '5.0.5(17)',
        modules: moduleHashes.map((packageHash, index) => ({
          name: index === 0 ? 'entry' : 'lib',
          type: index === 0 ? 'entry' : 'share',
          deviceTypes: ['phone'],
          packageUrl: `https://elsewhere.example/${index}.hap`,
          packageHash,
        })),
      };
      return { app, sign: signHarmonyManifest(app, key) };
    };
    const mismatched = await publish(files, {
      'manifest.json5': JSON.stringify(signed(versionCode, [hashes[0] as string, 'ab'.repeat(32)])),
    });
    expect((await pageVersion(mismatched.id))?.installHint).toBe(
      '随版本上传的签名清单与安装包不符（模块的 packageHash 与安装包不同），请重新签名后上传',
    );
    // A hand-edited manifest whose modules are not objects is the same mismatch, not a failed install page.
    const oddFiles = modulesOf(profile);
    const odd = await publish(oddFiles, {
      'manifest.json5': JSON.stringify({
        app: { bundleName: 'com.example.harmony', versionCode, modules: [null, 7] },
        sign: 'c2lnbg==',
      }),
    });
    expect((await pageVersion(odd.id))?.installHint).toBe(
      '随版本上传的签名清单与安装包不符（模块的 packageHash 与安装包不同），请重新签名后上传',
    );

    // Describing the build is not enough: the sign must verify with the key the modules are signed with.
    const invalid =
      '随版本上传的签名清单验签失败：sign 与安装包的签名证书不符（清单签名后被改动过，或不是用签此安装包的证书签的），请用签此安装包的 .p12 重新签名后上传';
    const tamperedFiles = modulesOf(profile);
    const tampered = signed(versionCode, Object.values(tamperedFiles).map(sha256));
    tampered.app.label = '鸿蒙商城（改）';
    const afterSigning = await publish(tamperedFiles, { 'manifest.json5': JSON.stringify(tampered) });
    expect((await pageVersion(afterSigning.id))?.installHint).toBe(invalid);
    const otherFiles = modulesOf(profile);
    const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const otherSigner = await publish(otherFiles, {
      'manifest.json5': JSON.stringify(signed(versionCode, Object.values(otherFiles).map(sha256), otherKey)),
    });
    expect((await pageVersion(otherSigner.id))?.installHint).toBe(invalid);

    const goodFiles = modulesOf(profile);
    const fitting = await publish(goodFiles, {
      'shop-manifest.json5': JSON.stringify(signed(versionCode, Object.values(goodFiles).map(sha256))),
    });
    const shown = await pageVersion(fitting.id);
    expect(shown?.installHint).toBeNull();
    const link = shown?.installUrl ?? '';
    expect(link.startsWith('store://enterprise/manifest?url=')).toBe(true);
    const manifestUrl = decodeURIComponent(link.slice('store://enterprise/manifest?url='.length));
    expect(manifestUrl.startsWith(`${PUBLIC}/api/app_version/harmony_manifest.json5?`)).toBe(true);
    const manifest = JSON.parse((await download(manifestUrl)).bytes.toString('utf8'));
    expect(manifest).toMatchObject({
      app: {
        bundleName: 'com.example.harmony',
        versionCode,
        versionName: '4.0.0',
        label: '鸿蒙商城',
        deployDomain: 'release.example',
        icons: { normal: expect.stringMatching(/^https:\/\/release\.example\//) },
        minAPIVersion: '5.0.5(17)',
      },
    });
    // What we serve (our URLs, domain and icon) still verifies as the device verifies it, with the modules' key.
    expect(verifyHarmonyManifest(manifest.app, manifest.sign, createPublicKey(harmonyDeveloperKey()))).toBe(true);
    expect(
      manifest.app.modules.map((m: { name: string; type: string; packageHash: string }) => [
        m.name,
        m.type,
        m.packageHash,
      ]),
    ).toEqual([
      ['entry', 'entry', sha256(goodFiles['entry-default-signed.hap'])],
      ['lib', 'share', sha256(goodFiles['lib-default-signed.hsp'])],
    ]);
    // The packageUrl of each module downloads exactly the bytes its packageHash names.
    for (const module of manifest.app.modules as { packageUrl: string; packageHash: string }[]) {
      expect(module.packageUrl.startsWith(`${PUBLIC}/`)).toBe(true);
      expect(sha256((await download(module.packageUrl)).bytes)).toBe(module.packageHash);
    }
  });
});
