import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { harmonyApiVersion } from './hap-inspector.ts';
import { ResourceIndex, ResourceIndexError } from './hap-resources.ts';
import { readHapProfile } from './hap-signing.ts';
import { packageIdentity } from './package-identity.ts';
import { inspectPackage } from './package-inspector.ts';
import { inspectionFailureOf } from './testing/expect-failure.ts';
import {
  buildResourcesIndex,
  harmonyIdentities,
  hapProfileJson,
  RES_TYPE,
  sampleHap,
  sampleHapEntries,
  sampleHarmonyApp,
} from './testing/hap-builder.ts';
import { signCms } from './testing/signing.ts';
import { createTempDir } from './testing/temp-files.ts';
import { buildZip } from './testing/zip-writer.ts';
import type { HapInspection } from './types.ts';

const temp = createTempDir();
afterAll(() => temp.cleanup());

async function inspect(name: string, bytes: Buffer): Promise<HapInspection> {
  const inspection = await inspectPackage(temp.write(name, bytes), { declaredName: name });
  if (inspection.kind !== 'hap' && inspection.kind !== 'hsp' && inspection.kind !== 'app')
    throw new Error(`not a HarmonyOS package: ${inspection.kind}`);
  return inspection;
}

describe('HarmonyOS module files (.hap / .hsp)', () => {
  it('reads the app, its label in every language, the API levels as people read them and the module', async () => {
    const hap = await inspect(
      'entry.hap',
      sampleHap({ versionName: '2.3.0', versionCode: 2030000, dependencies: ['lib'] }),
    );
    expect(hap).toMatchObject({
      kind: 'hap',
      bundleName: 'com.example.harmony',
      versionName: '2.3.0',
      versionCode: 2030000,
      label: '鸿蒙演示',
      localizedLabels: { '': '鸿蒙演示', zh_CN: '鸿蒙演示（中文）', en_US: 'Harmony Demo' },
      deviceTypes: ['phone', 'tablet'],
      minApiVersion: '5.0.5(17)',
      targetApiVersion: '5.0.5(17)',
      compileSdkVersion: '5.0.5.165',
      debug: false,
      buildMode: 'release',
      modules: [
        { name: 'entry', type: 'entry', deviceTypes: ['phone', 'tablet'], dependencies: ['lib'], fileName: null },
      ],
      warnings: [],
    });
    expect(packageIdentity(hap)).toEqual({
      platform: 'harmony',
      version: '2.3.0',
      build: '2030000',
      name: '鸿蒙演示',
      bundleId: 'com.example.harmony',
      expiresAt: expect.any(Date),
    });
    // It stops installing when the first of its profile and its certificate ends.
    const ends = [hap.profile?.validTo?.getTime(), hap.signature?.certificate?.validTo.getTime()] as number[];
    expect(packageIdentity(hap).expiresAt?.getTime()).toBe(Math.min(...ends));
  });

  it('draws a layered icon foreground over background, and takes a plain media icon as it is', async () => {
    const layered = await inspect('layered.hap', sampleHap());
    expect(layered.icon).toMatchObject({ format: 'png', width: 64, height: 64, convertedFrom: 'adaptive-layers' });
    expect((await sharp(layered.icon?.data).metadata()).format).toBe('png');
    const plain = await inspect('plain.hap', sampleHap({ icon: 'plain' }));
    expect(plain.icon).toMatchObject({
      width: 48,
      convertedFrom: null,
      sourcePath: 'resources/base/media/app_icon.png',
    });
    const none = await inspect('none.hap', sampleHap({ icon: 'none' }));
    expect([none.icon, none.warnings]).toEqual([null, ['应用图标无法读取，已使用默认图标']]);
  });

  it('tells a shared module (.hsp) from a .hap by its module type, and refuses one named for the other', async () => {
    const shared = sampleHap({ moduleName: 'lib', moduleType: 'shared' });
    expect((await inspect('lib.hsp', shared)).kind).toBe('hsp');
    const wrong = await inspectionFailureOf(() => inspect('lib.hap', shared));
    expect([wrong.reason, wrong.message]).toEqual(['kindMismatch', '扩展名为.hap但内容是HarmonyOS共享包']);
    const entryAsHsp = await inspectionFailureOf(() => inspect('entry.hsp', sampleHap()));
    expect(entryAsHsp.message).toBe('扩展名为.hsp但内容是HarmonyOS安装包');
    const apkAsHap = await inspectionFailureOf(() =>
      inspect('x.hap', buildZip([{ name: 'AndroidManifest.xml', data: 'x' }])),
    );
    expect(apkAsHap.reason).toBe('kindMismatch');
  });

  it('reads the signer with its issuer chain, and a release profile for enterprise distribution', async () => {
    const { developer } = harmonyIdentities();
    const hap = await inspect(
      'signed.hap',
      sampleHap({ profile: { type: 'release', distributionType: 'enterprise' } }),
    );
    expect(hap.signature?.certificate?.commonName).toBe('示例科技有限公司(1234567890),Release');
    expect(hap.signature?.certificate?.sha256).toBe(developer.sha256);
    expect(hap.signature?.chain.map((cert) => cert.commonName)).toEqual([
      '示例科技有限公司(1234567890),Release',
      'Test CBG Developer Relations CA G2',
      'Test CBG Root CA G2',
    ]);
    expect(hap.profile).toMatchObject({
      type: 'enterprise',
      declaredType: 'release',
      distributionType: 'enterprise',
      bundleName: 'com.example.harmony',
      devices: [],
      signer: { commonName: 'Test Profile Management' },
      certificate: { sha256: developer.sha256 },
    });
  });

  it('reads a debug build with its debug profile and the devices it installs on', async () => {
    const devices = ['5C653C1048E60188BFC94379386643716EFD850BAF557C4DB8C83EA47D5677F4', 'A'.repeat(64)];
    const hap = await inspect('debug.hap', sampleHap({ debug: true, profile: { type: 'debug', devices } }));
    expect(hap.debug).toBe(true);
    expect(hap.profile).toMatchObject({ type: 'debug', declaredType: 'debug', devices, deviceIdType: 'udid' });
  });

  it('keeps an unsigned module with a warning, and one without resources.index with its bundle name', async () => {
    const unsigned = await inspect('unsigned.hap', sampleHap({ profile: null }));
    expect([unsigned.signature, unsigned.profile, unsigned.warnings]).toEqual([
      null,
      null,
      ['安装包未签名，设备无法安装'],
    ]);
    const entries = sampleHapEntries().filter((entry) => entry.name !== 'resources.index');
    const bare = await inspect('bare.hap', buildZip(entries));
    expect(bare.label).toBeNull();
    expect(bare.warnings).toContain('安装包中没有 resources.index，无法读取应用名称和图标');
    expect(packageIdentity(bare).bundleId).toBe('com.example.harmony');
  });

  it('refuses a module.json that is not JSON or names no bundle, in Chinese', async () => {
    const broken = await inspectionFailureOf(() =>
      inspect('broken.hap', sampleHap({ extra: { 'module.json': '{"app":' } })),
    );
    expect([broken.reason, broken.message]).toEqual(['metadataUnreadable', '无法读取安装包信息：module.json 无法解析']);
    const nameless = await inspectionFailureOf(() =>
      inspect(
        'nameless.hap',
        sampleHap({ extra: { 'module.json': JSON.stringify({ app: {}, module: { name: 'entry' } }) } }),
      ),
    );
    expect(nameless.message).toBe('无法读取安装包信息：module.json 缺少 bundleName');
    const notHap = await inspectionFailureOf(() =>
      inspect('site.hap', buildZip([{ name: 'index.html', data: '<p>' }])),
    );
    expect([notHap.reason, notHap.message]).toEqual([
      'missingAppBundle',
      '安装包中找不到应用信息：找不到 module.json（HarmonyOS NEXT 的 Stage 模型模块）',
    ]);
  });

  it('reads a hostile resources.index as unreadable, with a warning, in time proportional to its size', async () => {
    const good = buildResourcesIndex([
      { locale: '', items: [{ id: 1, type: RES_TYPE.string, name: 'a', value: 'b' }] },
    ]);
    const lies = Buffer.from(good);
    lies.writeUInt32LE(0xffffffff, 132); // a billion configurations
    expect(() => new ResourceIndex(lies)).toThrow(ResourceIndexError);
    // 20,000 configurations all pointing at one table of 100,000 rows: reading each would be 2·10⁹ rows.
    const rows = 100_000;
    const configs = 20_000;
    const table = Buffer.alloc(8 + rows * 8);
    table.write('IDSS', 0, 'latin1');
    table.writeUInt32LE(rows, 4);
    const header = Buffer.alloc(136);
    header.writeUInt32LE(configs, 132);
    const keys = Buffer.alloc(configs * 12);
    const tableAt = 136 + keys.length;
    for (let i = 0; i < configs; i++) {
      keys.write('KEYS', i * 12, 'latin1');
      keys.writeUInt32LE(tableAt, i * 12 + 4);
    }
    const hostile = Buffer.concat([header, keys, table]);
    expect(() => new ResourceIndex(hostile).itemsOf(42)).toThrow(/read too often/);
    const hap = await inspect('hostile.hap', sampleHap({ extra: { 'resources.index': hostile } }));
    expect(hap.label).toBeNull();
    expect(hap.warnings).toContain('resources.index 格式无法读取，未读取应用名称和图标');
    const truncated = await inspect('cut.hap', sampleHap({ extra: { 'resources.index': good.subarray(0, 150) } }));
    expect(truncated.warnings).toContain('resources.index 格式无法读取，未读取应用名称和图标');
  });

  it('refuses a module.json past 1 MiB before parsing it, and ignores a profile JSON past 1 MiB', async () => {
    const nested = `{"app":${'['.repeat(600_000)}${']'.repeat(600_000)}}`;
    const tooLarge = await inspectionFailureOf(() =>
      inspect('deep.hap', sampleHap({ extra: { 'module.json': nested } })),
    );
    expect([tooLarge.reason, tooLarge.message]).toEqual(['entryTooLarge', '安装包中的文件过大，无法读取：module.json']);
    const { profileSigner } = harmonyIdentities();
    expect(readHapProfile(signCms(Buffer.from(nested), profileSigner))).toBeNull();
  });

  it('ignores a profile that is not JSON and a sign block whose sizes lie', async () => {
    const { profileSigner } = harmonyIdentities();
    expect(readHapProfile(signCms(Buffer.from('not json'), profileSigner))).toBeNull();
    expect(readHapProfile(Buffer.from('garbage'))).toBeNull();
    const good = hapProfileJson(harmonyIdentities().developer);
    expect(readHapProfile(signCms(Buffer.from(JSON.stringify(good)), profileSigner))?.type).toBe('enterprise');
    const bytes = sampleHap();
    const footer = bytes.indexOf(Buffer.from('<hap sign block>'));
    const lying = Buffer.from(bytes);
    lying.writeBigUInt64LE(2n ** 60n, footer - 8);
    const hap = await inspect('lying.hap', lying);
    expect([hap.signature, hap.warnings]).toEqual([null, ['安装包未签名，设备无法安装']]);
  });
});

describe('packed HarmonyOS apps (.app) and module sets', () => {
  it('lists every module of the .app, the entry first, with the entry module’s app details', async () => {
    const app = await inspect(
      'demo.app',
      sampleHarmonyApp({
        'lib-default-signed.hsp': sampleHap({ moduleName: 'lib', moduleType: 'shared' }),
        'entry-default-signed.hap': sampleHap({ dependencies: ['lib'] }),
      }),
    );
    expect(app.kind).toBe('app');
    expect(app.label).toBe('鸿蒙演示');
    expect(app.modules).toEqual([
      {
        name: 'entry',
        type: 'entry',
        deviceTypes: ['phone', 'tablet'],
        dependencies: ['lib'],
        fileName: 'entry-default-signed.hap',
      },
      {
        name: 'lib',
        type: 'shared',
        deviceTypes: ['phone', 'tablet'],
        dependencies: [],
        fileName: 'lib-default-signed.hsp',
      },
    ]);
  });

  it('refuses modules of another app or another version, naming them', async () => {
    const otherApp = await inspectionFailureOf(() =>
      inspect(
        'x.app',
        sampleHarmonyApp({
          'a.hap': sampleHap(),
          'b.hsp': sampleHap({ moduleName: 'b', moduleType: 'shared', bundleName: 'com.other' }),
        }),
      ),
    );
    expect([otherApp.reason, otherApp.message]).toEqual([
      'moduleMismatch',
      '这些模块不属于同一应用的同一版本：b.hsp 的包名 com.other 与 a.hap 的 com.example.harmony 不同',
    ]);
    const otherVersion = await inspectionFailureOf(() =>
      inspect(
        'y.app',
        sampleHarmonyApp({
          'a.hap': sampleHap(),
          'b.hsp': sampleHap({ moduleName: 'b', moduleType: 'shared', versionCode: 7 }),
        }),
      ),
    );
    expect(otherVersion.message).toBe(
      '这些模块不属于同一应用的同一版本：b.hsp 的 versionCode 7 与 a.hap 的 1000001 不同',
    );
    const twice = await inspectionFailureOf(() =>
      inspect('z.app', sampleHarmonyApp({ 'a.hap': sampleHap(), 'copy.hap': sampleHap() })),
    );
    expect(twice.message).toBe('这些模块不属于同一应用的同一版本：copy.hap 与 a.hap 是同一个模块 entry');
  });
});

describe('API versions', () => {
  it('reads 50005017 as 5.0.5(17), 60000020 as 6.0.0(20) and an old bare API level as itself', () => {
    expect([50005017, 60000020, 50100018, 12, -1, 1.5, '17'].map(harmonyApiVersion)).toEqual([
      '5.0.5(17)',
      '6.0.0(20)',
      '5.1.0(18)',
      '12',
      null,
      null,
      null,
    ]);
  });
});
