import { createHash, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signHarmonyManifest, verifyHarmonyManifest } from '@release/inspect';
import { harmonyDeveloperKey, sampleHap } from '@release/inspect/testing/hap-builder.ts';
import {
  type HarmonySite,
  installFromStore,
  PHONE,
  publishThroughUploader,
  startHarmonySite,
} from './helpers/harmony-site.ts';
import { e2eDatabases } from './helpers/server-process.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Issue 21's enterprise install, end to end behind HTTPS (Debian's nginx, docs/deploy/nginx.conf): an editor publishes
 * an entry module and its shared module, signed for enterprise distribution, with the manifest signed elsewhere as an
 * attachment; a HarmonyOS phone at 390 px gets 安装 as a `store://enterprise/manifest?url=` link whose manifest is
 * served over HTTPS, lists both modules with URLs that download, over HTTPS, exactly the bytes their SHA-256 names,
 * and still carries a signature that verifies with the modules' key.
 */
describe.each(e2eDatabases())('HarmonyOS enterprise install through store:// (%s)', (database) => {
  let harmony: HarmonySite;
  let appId = 0;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'release-e2e-harmony-store-'));
  const profile = { type: 'release' as const, distributionType: 'enterprise' };
  const modules = {
    'entry-default-signed.hap': sampleHap({
      versionName: '2.0.0',
      versionCode: 2000000,
      dependencies: ['lib'],
      profile,
    }),
    'lib-default-signed.hsp': sampleHap({
      versionName: '2.0.0',
      versionCode: 2000000,
      moduleName: 'lib',
      moduleType: 'shared',
      profile,
    }),
  };
  /** The manifest as hpack writes it for these modules (its URLs on another host), signed as manifest-sign-tool does. */
  const signedManifest = () => {
    const app = {
      bundleName: 'com.example.harmony',
      bundleType: 'app',
      versionCode: 2000000,
      versionName: '2.0.0',
      label: '鸿蒙演示',
      deployDomain: 'cdn.example',
      icons: { normal: 'https://cdn.example/icon.png', large: 'https://cdn.example/icon.png' },
      minAPIVersion: '5.0.5(17)',
      targetAPIVersion: '5.0.5(17)',
      modules: Object.entries(modules).map(([fileName, bytes], index) => ({
        name: index === 0 ? 'entry' : 'lib',
        type: index === 0 ? 'entry' : 'share',
        deviceTypes: ['phone', 'tablet'],
        packageUrl: `https://cdn.example/${fileName}`,
        packageHash: sha256(bytes),
      })),
    };
    return JSON.stringify({ app, sign: signHarmonyManifest(app, harmonyDeveloperKey()) });
  };

  beforeAll(async () => {
    harmony = await startHarmonySite(database);
    appId = await harmony.api.createApp(harmony.admin, {
      appName: '鸿蒙演示',
      path: 'harmony-store',
      appType: 'native',
    });
  }, 120_000);
  afterAll(async () => {
    await harmony?.stop();
    fs.rmSync(files, { recursive: true, force: true });
  });

  it('published with its signed manifest, the build installs from an https manifest whose modules match their hashes (390 px)', async () => {
    const paths = Object.entries(modules).map(([name, bytes]) => {
      fs.writeFileSync(path.join(files, name), bytes);
      return path.join(files, name);
    });
    const manifestFile = path.join(files, 'manifest.json5');
    fs.writeFileSync(manifestFile, signedManifest());
    expect(await publishThroughUploader(harmony, appId, paths, { attachment: manifestFile })).toContain('2.0.0');

    const { context, page, manifest } = await installFromStore(harmony, 'harmony-store');
    const { app, sign } = manifest;
    expect(app).toMatchObject({
      bundleName: 'com.example.harmony',
      versionCode: 2000000,
      versionName: '2.0.0',
    });
    expect(app.icons.normal.startsWith(`${harmony.site.httpsUrl}/`)).toBe(true);
    expect(app.modules.map((m) => [m.name, m.type, m.packageHash])).toEqual([
      ['entry', 'entry', sha256(modules['entry-default-signed.hap'])],
      ['lib', 'share', sha256(modules['lib-default-signed.hsp'])],
    ]);
    expect(verifyHarmonyManifest(app, sign, createPublicKey(harmonyDeveloperKey()))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `.tmp/e2e-install-harmony-store-390-${database}.png`, fullPage: true });
    await context.close();
  });
});
