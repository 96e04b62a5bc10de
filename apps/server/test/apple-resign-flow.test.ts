import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppleAccountMessages,
  type AddDeviceToBuildResult,
  type AppVersionRow,
  type AppleAccountRow,
  type CertificateRow,
  type RegenerateAppleProfileResult,
  type RegisterAppleDevicesResult,
  type ZsignJob,
} from '@release/contract';
import { FakeClock, startAppleFake, type AppleFake } from '@release/fakes';
import { inspectMobileprovision } from '@release/inspect/mobileprovision.ts';
import { makeP12 } from '@release/inspect/testing/identities.ts';
import { bytesAt } from '../src/signing/app-files.ts';
import { loadAppFiles, openIpa } from '../src/signing/ipa-archive.ts';
import { sampleSignedIpa, sampleSigningSet } from '../src/signing/testing/ipa-builder.ts';
import { verifyApp } from '../src/signing/verify-app.ts';
import { testDialects } from './helpers/dialects.ts';
import { insertApp } from './helpers/factories.ts';
import { startTestServer, TEST_CLOCK_START, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

// Issue 7 "What proves it": the App Store Connect flow against the fake — a tester's phone registered, the
// profile regenerated with it, the build re-signed, and the re-signed build's profile lists the new UDID.
const set = sampleSigningSet('NEWTEAM001', { now: TEST_CLOCK_START });
const PASSWORD = 'p12-pass';
const NEW_PHONE = '00008120-0011223344556677';

describe.each(testDialects())("adding a tester's phone to a build through Apple on %s", (dialect) => {
  let server: TestServer;
  let apple: AppleFake;
  let admin: string;
  let appId: number;
  let version: AppVersionRow;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'apple-resign-'));
  const api = <T>(method: string, url: string, body?: unknown) =>
    server.request<T>(method, url, { token: admin, body });

  beforeAll(async () => {
    apple = await startAppleFake({
      clock: new FakeClock({ frozen: true, start: TEST_CLOCK_START }),
      teamId: 'NEWTEAM001',
      devices: [{ name: '老测试机', udid: '00008030-001A2B3C4D5E6F70' }],
    });
    apple.addBundleId({ identifier: 'com.example.demo', name: 'Demo' });
    apple.addCertificate({ der: set.identity.der });
    server = await startTestServer(dialect, { appleApiBaseUrl: apple.url });
    admin = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
    await apple?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('registers the phone, regenerates the development profile and re-signs the build with it', async () => {
    const form = new FormData();
    form.append('password', PASSWORD);
    form.append('p12', new Blob([new Uint8Array(makeP12(set.identity, PASSWORD))]), 'dev.p12');
    form.append('profiles', new Blob([new Uint8Array(set.mainProfile)]), 'main.mobileprovision');
    form.append('profiles', new Blob([new Uint8Array(set.wildcardProfile)]), 'wildcard.mobileprovision');
    const cert = (await (
      await fetch(`${server.url}/api/cert_upload`, { method: 'POST', headers: { token: admin }, body: form })
    ).json()) as { code: number; data: CertificateRow };
    expect(cert.code).toBe(200);
    appId = await insertApp(server.db, { app_name: '演示' });
    const fileKey = await transferFile(server, admin, 'Demo.ipa', sampleSignedIpa());
    version = (
      await api<AppVersionRow>('POST', '/api/v2/upload_app', { appId, description: '首个版本', s3Url: fileKey })
    ).body.data;

    const key = apple.addKey();
    const account = (
      await api<AppleAccountRow>('POST', '/api/apple_account', {
        name: '新团队',
        issuerId: key.issuerId,
        keyId: key.keyId,
        privateKey: key.p8,
      })
    ).body.data;
    expect(
      (
        await api('POST', '/api/apple_account/bind', {
          id: account.id,
          appIds: [appId],
          certificateIds: [cert.data.id],
        })
      ).body.code,
    ).toBe(200);
    expect((await api('POST', '/api/apple_account/sync', { id: account.id })).body.code).toBe(200);
    await api('POST', '/api/udid', { udid: NEW_PHONE, deviceName: '新同事的 iPhone', platform: 'ios' });
    const registered = await api<RegisterAppleDevicesResult>('POST', '/api/apple_account/register_devices', {
      id: account.id,
    });
    expect(registered.body.data.registered.map((d) => d.udid)).toEqual([NEW_PHONE]);
    const regenerated = await api<RegenerateAppleProfileResult>('POST', '/api/apple_account/profile', {
      id: account.id,
      bundleId: 'com.example.demo',
      profileType: 'development',
    });
    expect(regenerated.body.data).toMatchObject({
      certificateId: cert.data.id,
      profile: { type: 'development', listsCertificate: true },
    });
    expect(regenerated.body.data.profile.devices).toContain(NEW_PHONE);

    const resigned = await api<ZsignJob>('POST', '/api/zsign', { certId: cert.data.id, appVersionId: version.id });
    expect([resigned.body.code, resigned.body.data.status]).toEqual([200, 'done']);
    const embedded = await embeddedProfile(resigned.body.data.version?.cdnUrl ?? '');
    expect(embedded.uuid).toBe(regenerated.body.data.profile.uuid);
    expect(embedded.provisionedDevices).toContain(NEW_PHONE);
  });

  it('does it all with one button (add_device_to_build) for the next phone', async () => {
    const phone = await api<{ id: number }>('POST', '/api/udid', {
      udid: '00008130-00AABBCCDDEEFF00',
      deviceName: '测试组的 iPhone',
      platform: 'ios',
    });
    const res = await api<AddDeviceToBuildResult>('POST', '/api/apple_account/add_device_to_build', {
      appVersionId: version.id,
      deviceId: phone.body.data.id,
    });
    expect([res.body.code, res.body.msg, res.body.data.job.status]).toEqual([200, 'success', 'done']);
    expect(res.body.data.profile.devices).toEqual(expect.arrayContaining([NEW_PHONE, '00008130-00AABBCCDDEEFF00']));
    expect(apple.state.devices.map((d) => d.udid)).toContain('00008130-00AABBCCDDEEFF00');
    const embedded = await embeddedProfile(res.body.data.job.version?.cdnUrl ?? '');
    expect(embedded.uuid).toBe(res.body.data.profile.uuid);
    expect(embedded.provisionedDevices).toContain('00008130-00AABBCCDDEEFF00');

    // An app no account is bound to says so.
    const otherApp = await insertApp(server.db, { app_name: '别的应用' });
    const otherKey = await transferFile(server, admin, 'Other.ipa', sampleSignedIpa());
    const other = (
      await api<AppVersionRow>('POST', '/api/v2/upload_app', { appId: otherApp, description: '别的', s3Url: otherKey })
    ).body.data;
    const refused = await api('POST', '/api/apple_account/add_device_to_build', {
      appVersionId: other.id,
      deviceId: phone.body.data.id,
    });
    expect([refused.status, refused.body.msg]).toEqual([400, AppleAccountMessages.appNotBound]);
  });

  async function embeddedProfile(url: string) {
    const file = path.join(tmp, `resigned-${Math.random().toString(36).slice(2)}.ipa`);
    fs.writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
    const archive = await openIpa(file);
    const files = await loadAppFiles(archive).finally(() => archive.close());
    expect(verifyApp(files)).toEqual([]);
    return inspectMobileprovision(bytesAt(files, 'Payload/Demo.app/embedded.mobileprovision') ?? Buffer.alloc(0));
  }
});
