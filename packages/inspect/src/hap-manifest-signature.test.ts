import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  harmonyManifestSignedBytes,
  harmonyManifestSigned,
  signHarmonyManifest,
  verifyHarmonyManifest,
} from './hap-manifest-signature.ts';

/** An install manifest's `app` as hpack writes it before signing: fields in its own order, URLs and icons included. */
const app = () => ({
  versionName: '1.0.1',
  versionCode: 1000001,
  label: '商城 <测试> & 预览',
  bundleType: 'app',
  bundleName: 'com.example.shop',
  deployDomain: 'download.example',
  icons: { normal: 'https://download.example/icon.png', large: 'https://download.example/icon.png' },
  minAPIVersion: '5.0.5(17)',
  targetAPIVersion: '5.0.5(17)',
  modules: [
    {
      packageUrl: 'https://download.example/entry.hap?token=a=b',
      packageHash: 'ab'.repeat(32),
      type: 'entry',
      name: 'entry',
      deviceTypes: ['phone', 'tablet'],
    },
  ],
});

describe('HarmonyOS install manifest signature (manifest-sign-tool)', () => {
  const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  it('signs what the tool keeps of `app`, in its class order, compact, HTML characters escaped as Gson writes them', () => {
    expect(harmonyManifestSignedBytes(harmonyManifestSigned(app()) ?? {}).toString('utf8')).toBe(
      '{"bundleName":"com.example.shop","bundleType":"app","label":"商城 \\u003c测试\\u003e \\u0026 预览",' +
        '"minAPIVersion":"5.0.5(17)","modules":[{"deviceTypes":["phone","tablet"],"name":"entry",' +
        `"packageHash":"${'ab'.repeat(32)}","type":"entry"}],"targetAPIVersion":"5.0.5(17)",` +
        '"versionCode":1000001,"versionName":"1.0.1"}',
    );
    expect(harmonyManifestSignedBytes({ label: "a='b'\n\u2028" }).toString('utf8')).toBe(
      '{"label":"a\\u003d\\u0027b\\u0027\\n\\u2028"}',
    );
  });

  it('a signature verifies with the signer’s certificate key whatever the URLs, domain and icons say', () => {
    const sign = signHarmonyManifest(app(), p256.privateKey) ?? '';
    expect(Buffer.from(sign, 'base64')[0]).toBe(0x30);
    const served = { ...app(), deployDomain: 'release.example', icons: { normal: 'https://release.example/i.png' } };
    served.modules = served.modules.map((m) => ({ ...m, packageUrl: 'https://release.example/module?id=9' }));
    expect(verifyHarmonyManifest(served, sign, p256.publicKey)).toBe(true);
  });

  it('refuses a signed field changed, another key, a damaged signature or an app the tool would not read', () => {
    const sign = signHarmonyManifest(app(), p256.privateKey) ?? '';
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const changed = [
      { ...app(), label: '商城' },
      { ...app(), versionCode: 1000002 },
      { ...app(), modules: [{ ...app().modules[0], packageHash: 'cd'.repeat(32) }] },
      { ...app(), modules: [{ ...app().modules[0], deviceTypes: ['phone'] }] },
    ];
    for (const tampered of changed) expect(verifyHarmonyManifest(tampered, sign, p256.publicKey)).toBe(false);
    expect(verifyHarmonyManifest(app(), sign, createPublicKey(other.privateKey))).toBe(false);
    expect(
      verifyHarmonyManifest(
        app(),
        `${sign.slice(0, 10)}${sign[10] === 'A' ? 'B' : 'A'}${sign.slice(11)}`,
        p256.publicKey,
      ),
    ).toBe(false);
    expect(verifyHarmonyManifest(app(), 'not base64!', p256.publicKey)).toBe(false);
    expect(verifyHarmonyManifest({ ...app(), versionCode: '1000001' }, sign, p256.publicKey)).toBe(false);
    expect(signHarmonyManifest({ ...app(), modules: [null] }, p256.privateKey)).toBeNull();
  });
});
