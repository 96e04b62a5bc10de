import { createHash, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CertMessages,
  HarmonyCertMessages,
  ResultCode,
  type AppVersionRow,
  type HarmonyCertificateRow,
  type InstallPage,
} from '@release/contract';
import { verifyHarmonyManifest } from '@release/inspect';
import { makeEcHarmonyIdentity } from '@release/inspect/testing/hap-ec-identity.ts';
import { DAY_MS, currentValidity } from '@release/inspect/testing/validity.ts';
import { testDialects } from './helpers/dialects.ts';
import { startHarmonyShop } from './helpers/harmony-shop.ts';
import { TEST_CLOCK_START, type ApiResponse, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const combos = testDialects().flatMap((dialect) =>
  (['local', 's3'] as const).map((store) => [dialect, store] as const),
);
const PUBLIC = 'https://release.example';
const PASSWORD = '鸿蒙证书密码2026';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const valid = currentValidity(TEST_CLOCK_START);
// Huawei issues HarmonyOS release certificates for EC P-256 keys; the modules below are signed with these.
const release = makeEcHarmonyIdentity('示例科技有限公司(1234567890),Release', {
  serial: '21',
  notBefore: valid.from,
  notAfter: valid.to,
});
const other = makeEcHarmonyIdentity('另一家公司(9999999999),Release', {
  serial: '22',
  notBefore: valid.from,
  notAfter: valid.to,
});
const expired = makeEcHarmonyIdentity('示例科技有限公司(1234567890),Release', {
  serial: '23',
  notBefore: new Date(TEST_CLOCK_START - 400 * DAY_MS),
  notAfter: new Date(TEST_CLOCK_START - DAY_MS),
});
const MISSING =
  '企业内部分发需要签名后的安装清单：请管理员在「证书管理 › 鸿蒙签名证书」上传签此安装包的 .p12（服务器用它签名安装清单），或用华为的 manifest-sign-tool 签名 manifest.json5，作为附件随此版本上传';

/** Issue 21 "Manifest signing": the admin uploads the HarmonyOS .p12, the server signs each version's manifest with it. */
describe.each(combos)('the server signs HarmonyOS manifests on %s with the %s store', (dialect, store) => {
  let server: TestServer;
  let close: () => Promise<void>;
  let admin: string;
  let editor: { userId: number; token: string };
  let appId: number;
  let versionCode = 5000000;

  const local = (url: string) => url.replace(PUBLIC, server.url);
  const uploadCert = async (
    p12: Buffer,
    password = PASSWORD,
    token = admin,
    extra?: [string, Buffer],
  ): Promise<ApiResponse<HarmonyCertificateRow>> => {
    const form = new FormData();
    form.append('password', password);
    form.append('p12', new Blob([new Uint8Array(p12)]), 'release.p12');
    if (extra) form.append('profiles', new Blob([new Uint8Array(extra[1])]), extra[0]);
    const response = await fetch(`${server.url}/api/harmony_cert_upload`, {
      method: 'POST',
      headers: { token },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as ApiResponse<HarmonyCertificateRow>['body'] };
  };
  const list = async () =>
    (await server.request<HarmonyCertificateRow[]>('GET', '/api/harmony_cert_list', { token: admin })).body.data;
  /** An enterprise build (entry + shared module) signed with `identity`, published without any manifest. */
  const publish = async (identity: typeof release) => {
    versionCode += 1;
    const profile = { type: 'release' as const, distributionType: 'enterprise' };
    const files = {
      'entry-default-signed.hap': identity.hap({ versionCode, versionName: '5.0.0', dependencies: ['lib'], profile }),
      'lib-default-signed.hsp': identity.hap({
        versionCode,
        versionName: '5.0.0',
        moduleName: 'lib',
        moduleType: 'shared',
        profile,
      }),
    };
    const [s3Url, ...moduleFileUrls] = await Promise.all(
      Object.entries(files).map(([name, bytes]) => transferFile(server, editor.token, name, bytes)),
    );
    const answer = await server.request<AppVersionRow>('POST', '/api/v2/upload_app', {
      token: editor.token,
      body: { appId, s3Url, moduleFileUrls },
    });
    expect(answer.body.msg).toBe('success');
    return { id: answer.body.data.id, files };
  };
  const pageVersion = async (id: number) => {
    const page = await server.request<InstallPage>('GET', `/api/app_version?url=harmony-sign&password=135790&id=${id}`);
    expect(page.status).toBe(200);
    return page.body.data.versions[0];
  };

  beforeAll(async () => {
    ({ server, admin, editor, appId, close } = await startHarmonyShop(dialect, {
      path: 'harmony-sign',
      store,
      publicUrl: PUBLIC,
    }));
  });
  afterAll(async () => {
    await close?.();
  });

  it('the admin uploads the EC .p12 as the iOS certificates: password checked, expiry refused, secrets never listed', async () => {
    expect((await uploadCert(release.p12(PASSWORD), '不是这个密码')).body.msg).toBe(CertMessages.wrongPassword);
    expect((await uploadCert(Buffer.from('not a p12'))).body.msg).toBe(CertMessages.notP12);
    expect((await uploadCert(expired.p12(PASSWORD))).body.msg).toBe(
      CertMessages.certificateExpired(TEST_CLOCK_START - DAY_MS),
    );
    expect((await uploadCert(release.p12(PASSWORD), PASSWORD, editor.token)).body.code).toBe(ResultCode.noPermission);
    expect(
      (await uploadCert(release.p12(PASSWORD), PASSWORD, admin, ['a.mobileprovision', Buffer.from('x')])).body.msg,
    ).toBe(HarmonyCertMessages.profilesNotHere);
    // The iOS upload refuses an EC identity (Apple issues RSA ones, and the iOS signer signs with RSA).
    const ios = new FormData();
    ios.append('password', PASSWORD);
    ios.append('p12', new Blob([new Uint8Array(release.p12(PASSWORD))]), 'release.p12');
    ios.append('profiles', new Blob([new Uint8Array(Buffer.from('x'))]), 'a.mobileprovision');
    const iosAnswer = await fetch(`${server.url}/api/cert_upload`, {
      method: 'POST',
      headers: { token: admin },
      body: ios,
    });
    expect(((await iosAnswer.json()) as { msg: string }).msg).toBe(CertMessages.unsupportedKey);

    const uploaded = await uploadCert(release.p12(PASSWORD));
    expect(uploaded.body.msg).toBe('success');
    expect(uploaded.body.data).toMatchObject({
      name: '示例科技有限公司(1234567890),Release',
      issuer: expect.stringContaining('Test CBG Developer Relations CA G2'),
      keyType: 'EC',
      publicKey: release.publicKey,
      validFrom: valid.from.getTime(),
      validTo: valid.to.getTime(),
      uploadBy: 'admin',
    });
    expect((await uploadCert(release.p12(PASSWORD))).status).toBe(409);
    const listed = await list();
    expect(listed.map((row) => row.sha1)).toEqual([uploaded.body.data.sha1]);
    expect(JSON.stringify(listed)).not.toMatch(/PRIVATE KEY|sealed|鸿蒙证书密码/);
    const stored = await server.db.selectFrom('harmony_certificates').selectAll().executeTakeFirstOrThrow();
    expect(stored.private_key_sealed).not.toContain('PRIVATE KEY');
    expect(stored.password_sealed).not.toContain(PASSWORD);
  });

  it('a build signed with the uploaded key gets a manifest the server signed; one signed with another key says what to upload', async () => {
    const { id, files } = await publish(release);
    const shown = await pageVersion(id);
    expect(shown?.installHint).toBeNull();
    const link = shown?.installUrl ?? '';
    expect(link.startsWith('store://enterprise/manifest?url=')).toBe(true);
    const manifestUrl = decodeURIComponent(link.slice('store://enterprise/manifest?url='.length));
    const manifest = (await (await fetch(local(manifestUrl))).json()) as {
      app: {
        modules: { name: string; type: string; packageUrl: string; packageHash: string; deviceTypes: string[] }[];
      };
      sign: string;
    };
    expect(manifest.app).toMatchObject({
      bundleName: 'com.example.harmony',
      bundleType: 'app',
      versionCode,
      versionName: '5.0.0',
      deployDomain: 'release.example',
      minAPIVersion: expect.stringMatching(/^\d+\.\d+\.\d+\(\d+\)$/),
    });
    // The device checks `sign` with the key of the certificate in the modules' sign block: it verifies.
    expect(verifyHarmonyManifest(manifest.app, manifest.sign, createPublicKey(release.privateKey))).toBe(true);
    expect(verifyHarmonyManifest(manifest.app, manifest.sign, createPublicKey(other.privateKey))).toBe(false);
    expect(manifest.app.modules.map((m) => [m.name, m.type, m.packageHash])).toEqual([
      ['entry', 'entry', sha256(files['entry-default-signed.hap'])],
      ['lib', 'share', sha256(files['lib-default-signed.hsp'])],
    ]);
    for (const module of manifest.app.modules) {
      const bytes = Buffer.from(await (await fetch(local(module.packageUrl))).arrayBuffer());
      expect(sha256(bytes)).toBe(module.packageHash);
    }

    // Modules signed with a key no uploaded certificate carries: no manifest, and the page says what to upload.
    const stranger = await publish(other);
    expect(await pageVersion(stranger.id)).toMatchObject({ installUrl: null, installHint: MISSING });
  });

  it('once the certificate is deleted, or has expired, the page asks for it again', async () => {
    const { id } = await publish(release);
    expect((await pageVersion(id))?.installHint).toBeNull();
    server.clock.advance(valid.to.getTime() - TEST_CLOCK_START + DAY_MS);
    expect((await pageVersion(id))?.installHint).toBe(MISSING);
    server.clock.advance(-(valid.to.getTime() - TEST_CLOCK_START + DAY_MS));
    const [row] = await list();
    expect((await server.request('DELETE', `/api/harmony_cert?id=${row?.id}`, { token: admin })).body.msg).toBe(
      'success',
    );
    expect(await list()).toEqual([]);
    expect((await pageVersion(id))?.installHint).toBe(MISSING);
    expect((await server.request('DELETE', `/api/harmony_cert?id=${row?.id}`, { token: admin })).status).toBe(404);
  });
});
