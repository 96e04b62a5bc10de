import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEVICE_ENROLL_PER_APP_HOUR,
  DEVICE_ENROLL_TTL_MS,
  DeviceEnrollMessages,
  type DeviceEnrollLink,
  type DeviceEnrollResult,
  type DeviceRow,
  type InstallPage,
} from '@release/contract';
import forge from 'node-forge';
import { cmsCertificates, cmsSignedContent } from '@release/inspect/der.ts';
import { parsePlistDict } from '@release/inspect/plist.ts';
import { makeIdentity } from '@release/inspect/testing/signing.ts';
import { createAppsRepository } from '../src/modules/apps/apps.repository.ts';
import { createDevicesRepository } from '../src/modules/devices/devices.repository.ts';
import { createDeviceEnrollRepository } from '../src/modules/device-enroll/device-enroll.repository.ts';
import { createDeviceEnrollService } from '../src/modules/device-enroll/device-enroll.service.ts';
import { loadProfileSigner } from '../src/modules/device-enroll/mobileconfig.ts';
import { createUrlSigner } from '../src/storage/url-signer.ts';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { callbackUrlOf, challengeOf, fakeDeviceAnswer } from '../src/modules/device-enroll/testing/device-answer.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const NEW_PHONE = '00008110-000a1b2c3d4e5f99';
const LISTED_PHONE = '00008030-001A2B3C4D5E6F70'; // in the sample ipa's ad-hoc profile
const CMS = 'application/pkcs7-signature';

describe.each(testDialects())('self-service device registration on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let tester: string;
  let appId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    tester = (await server.createUser({ username: 'tester', roleLevel: 30 })).token;
    const created = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: { appName: '演示', appType: 'native', password: '246810', path: 'demo' },
    });
    appId = created.body.data.appId;
    const key = await transferFile(server, admin, 'demo.ipa', sampleIpa());
    await server.request('POST', '/api/v2/upload_app', { token: admin, body: { appId, s3Url: key, description: '' } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.deleteFrom('device_enrollments').execute();
    await server.db.deleteFrom('devices').execute();
  });

  const startForUser = async (token = tester) =>
    (await server.request<DeviceEnrollLink>('POST', '/api/device_enroll', { token, body: {} })).body.data.profileUrl;
  async function download(profileUrl: string) {
    const response = await fetch(profileUrl);
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  }
  /** Posts to the callback named in `profile` (the served `.mobileconfig`), as the device does. */
  async function post(profile: string, body: Buffer | string, contentType = CMS) {
    const response = await fetch(callbackUrlOf(profile), {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? body : new Uint8Array(body),
      redirect: 'manual',
    });
    const text = await response.text();
    return {
      status: response.status,
      location: response.headers.get('location'),
      body: text ? (JSON.parse(text) as { code: number; msg: string }) : null,
    };
  }
  async function result(location: string) {
    const query = new URL(location).search;
    return server.request<DeviceEnrollResult>('GET', `/api/device_enroll/result${query}`);
  }
  const devices = async () =>
    (await server.request<DeviceRow[]>('GET', '/api/udids?pageSize=100', { token: admin })).body.data;

  it("registers a signed-in user's iPhone: profile, signed answer, 301 to the result page, device listed", async () => {
    expect((await server.request('POST', '/api/device_enroll', { body: {} })).status).toBe(401);
    const profileUrl = await startForUser();
    expect(profileUrl).toMatch(new RegExp(`^${server.url}/api/device_enroll/profile\\.mobileconfig\\?c=`));
    const profile = await download(profileUrl);
    expect(profile.status).toBe(200);
    expect(profile.type).toBe('application/x-apple-aspen-config');
    expect(parsePlistDict(Buffer.from(profile.text))).toMatchObject({
      PayloadType: 'Profile Service',
      PayloadContent: {
        URL: expect.stringMatching(new RegExp(`^${server.url}/api/device_enroll/callback\\?s=\\d+\\.[\\w-]+$`)),
        DeviceAttributes: ['UDID', 'IMEI', 'ICCID', 'VERSION', 'PRODUCT', 'SERIAL'],
      },
    });
    // The challenge is stored hashed only.
    const stored = await server.db.selectFrom('device_enrollments').select('challenge_hash').executeTakeFirstOrThrow();
    expect(stored.challenge_hash).not.toContain(challengeOf(profile.text));

    const answer = await post(
      profile.text,
      fakeDeviceAnswer({
        udid: NEW_PHONE,
        challenge: challengeOf(profile.text),
        product: 'iPhone15,3',
        version: '22B83',
      }),
    );
    expect(answer.status).toBe(301);
    expect(answer.location).toMatch(new RegExp(`^${server.url}/device-enroll/result\\?id=\\d+&sig=`));
    const shown = await result(answer.location ?? '');
    expect(shown.body.data).toEqual({
      udid: NEW_PHONE.toUpperCase(),
      product: 'iPhone15,3',
      osVersion: '22B83',
      serial: 'F2LXK0AAAAAA',
      outcome: 'registered',
      app: null,
      versionId: null,
    });
    expect(await devices()).toEqual([
      expect.objectContaining({
        udid: NEW_PHONE.toUpperCase(),
        deviceName: 'tester 的 iPhone15,3',
        model: 'iPhone15,3',
        platform: 'ios',
        remark: '自助注册',
        reviewStatus: 'confirmed',
        createBy: 'tester',
      }),
    ]);

    // The same device again, through a new link: already known, nothing added.
    const again = await download(await startForUser());
    const second = await post(
      again.text,
      fakeDeviceAnswer({ udid: NEW_PHONE.toUpperCase(), challenge: challengeOf(again.text) }),
    );
    expect((await result(second.location ?? '')).body.data.outcome).toBe('known');
    expect(await devices()).toHaveLength(1);
  });

  it('refuses a replayed answer and a used or expired link', async () => {
    const profile = await download(await startForUser());
    const body = fakeDeviceAnswer({ udid: NEW_PHONE, challenge: challengeOf(profile.text) });
    expect((await post(profile.text, body)).status).toBe(301);
    const replay = await post(profile.text, body);
    expect(replay.status).toBe(409);
    expect(replay.body?.msg).toBe(DeviceEnrollMessages.linkUsed);
    expect((await download(await startForUser())).status).toBe(200);

    const late = await startForUser();
    const lateProfile = await download(late);
    server.clock.advance(DEVICE_ENROLL_TTL_MS + 1);
    const expiredDownload = await download(late);
    expect(expiredDownload.status).toBe(400);
    expect(JSON.parse(expiredDownload.text)).toMatchObject({ msg: DeviceEnrollMessages.linkExpired });
    const expired = await post(
      lateProfile.text,
      fakeDeviceAnswer({ udid: '00008110-000A1B2C3D4E5F00', challenge: challengeOf(lateProfile.text) }),
    );
    expect(expired).toMatchObject({ status: 400, location: null, body: { msg: DeviceEnrollMessages.linkExpired } });
    expect((await devices()).map((d) => d.udid)).toEqual([NEW_PHONE.toUpperCase()]);
  });

  it('answers bad bodies clearly: wrong type, oversized, garbage, unknown or missing challenge, bad UDID', async () => {
    const profile = await download(await startForUser());
    const challenge = challengeOf(profile.text);
    const good = fakeDeviceAnswer({ udid: NEW_PHONE, challenge });
    const at = profile.text;
    expect(await post(at, JSON.stringify({ UDID: NEW_PHONE }), 'application/json')).toMatchObject({
      status: 400,
      body: { msg: DeviceEnrollMessages.contentType },
    });
    expect(await post(at, good, 'text/plain')).toMatchObject({
      status: 400,
      body: { msg: DeviceEnrollMessages.contentType },
    });
    expect((await post(at, Buffer.concat([good, Buffer.alloc(70 * 1024)]))).status).toBe(413);
    expect(await post(at, Buffer.from('0123456789'.repeat(50)))).toMatchObject({
      status: 400,
      body: { msg: DeviceEnrollMessages.bodyUnreadable },
    });
    expect(await post(at, fakeDeviceAnswer({ udid: NEW_PHONE, challenge: 'x'.repeat(32) }))).toMatchObject({
      status: 404,
      body: { msg: DeviceEnrollMessages.linkMissing },
    });
    expect(await post(at, fakeDeviceAnswer({ udid: NEW_PHONE }))).toMatchObject({
      status: 400,
      body: { msg: DeviceEnrollMessages.challengeMissing },
    });
    expect(await post(at, fakeDeviceAnswer({ udid: 'not-a-udid', challenge }))).toMatchObject({
      status: 400,
      body: { msg: DeviceEnrollMessages.udidMissing },
    });
    // The body is read only for a registration the URL names: none, a forged one, another link's challenge.
    const bare = `<key>URL</key><string>${server.url}/api/device_enroll/callback</string>`;
    expect(await post(bare, good)).toMatchObject({ status: 404, body: { msg: DeviceEnrollMessages.linkMissing } });
    expect(await post(at.replace(/\?s=(\d+)\./, '?s=$1.forged'), good)).toMatchObject({
      status: 404,
      body: { msg: DeviceEnrollMessages.linkMissing },
    });
    const other = await download(await startForUser());
    expect(await post(other.text, good)).toMatchObject({
      status: 404,
      body: { msg: DeviceEnrollMessages.linkMissing },
    });
    // None of these used the challenge up.
    expect((await post(at, good)).status).toBe(301);
    expect(await devices()).toHaveLength(1);
    expect((await download(`${server.url}/api/device_enroll/profile.mobileconfig?c=${'y'.repeat(32)}`)).status).toBe(
      404,
    );
    expect((await server.request('GET', '/api/device_enroll/result?id=1&sig=forged')).body.msg).toBe(
      DeviceEnrollMessages.resultMissing,
    );
  });

  it('lets an install page visitor register; the page then says whether the build lists the device', async () => {
    const open = await server.request<InstallPage>('GET', '/api/app_version?url=demo&password=246810');
    const token = open.body.data.token;
    const versionId = open.body.data.versions[0]?.id ?? 0;
    expect(open.body.data.versions[0]).toMatchObject({ profileType: 'ad-hoc', deviceIncluded: null });
    const noToken = await server.request('POST', '/api/device_enroll/install', { body: { url: 'demo', versionId } });
    expect(noToken.status).toBe(403);
    const link = await server.request<DeviceEnrollLink>('POST', '/api/device_enroll/install', {
      body: { url: 'demo', versionId },
      headers: { 'app-version-token': token },
    });
    expect(link.status).toBe(200);
    const profile = await download(link.body.data.profileUrl);
    const answer = await post(
      profile.text,
      fakeDeviceAnswer({ udid: NEW_PHONE, challenge: challengeOf(profile.text), product: 'iPhone16,1' }),
    );
    expect((await result(answer.location ?? '')).body.data).toMatchObject({
      outcome: 'registered',
      app: { appName: '演示', path: 'demo' },
      versionId,
    });
    expect(await devices()).toEqual([
      expect.objectContaining({
        udid: NEW_PHONE.toUpperCase(),
        deviceName: 'iPhone16,1（演示）',
        remark: '安装页自助注册（演示）',
        reviewStatus: 'pending',
        createBy: null,
      }),
    ]);

    const withUdid = (udid: string) =>
      server.request<InstallPage>('GET', `/api/app_version?url=demo&udid=${udid}`, {
        headers: { 'app-version-token': token },
      });
    expect((await withUdid(NEW_PHONE)).body.data.versions[0]?.deviceIncluded).toBe(false);
    expect((await withUdid(LISTED_PHONE.toLowerCase())).body.data.versions[0]?.deviceIncluded).toBe(true);
  });

  it("builds the profile's callback and the 301 target from PUBLIC_URL", async () => {
    const behindProxy = await startTestServer(dialect, { publicUrl: 'https://dist.example.com/' });
    try {
      const token = (await behindProxy.createUser({ username: 'proxied', roleLevel: 30 })).token;
      const link = (await behindProxy.request<DeviceEnrollLink>('POST', '/api/device_enroll', { token, body: {} })).body
        .data.profileUrl;
      expect(link).toMatch(/^https:\/\/dist\.example\.com\/api\/device_enroll\/profile\.mobileconfig\?c=/);
      const profile = await (await fetch(link.replace('https://dist.example.com', behindProxy.url))).text();
      expect(callbackUrlOf(profile)).toMatch(
        /^https:\/\/dist\.example\.com\/api\/device_enroll\/callback\?s=\d+\.[\w-]+$/,
      );
      const answer = await fetch(callbackUrlOf(profile).replace('https://dist.example.com', behindProxy.url), {
        method: 'POST',
        headers: { 'content-type': CMS },
        body: new Uint8Array(fakeDeviceAnswer({ udid: NEW_PHONE, challenge: challengeOf(profile) })),
        redirect: 'manual',
      });
      expect(answer.status).toBe(301);
      expect(answer.headers.get('location')).toMatch(
        /^https:\/\/dist\.example\.com\/device-enroll\/result\?id=\d+&sig=[\w-]+$/,
      );
    } finally {
      await behindProxy.close();
    }
  });

  it('signs the profile with the configured server identity', async () => {
    const identity = makeIdentity('dist.example.com');
    const enroll = createDeviceEnrollService({
      enrollments: createDeviceEnrollRepository(server.db),
      devices: createDevicesRepository(server.db),
      apps: createAppsRepository(server.db),
      isInstallTokenValid: () => false,
      signer: createUrlSigner('s'.repeat(32)),
      clock: server.clock,
      profileSigner: loadProfileSigner(
        forge.pki.certificateToPem(identity.certificate),
        forge.pki.privateKeyToPem(identity.key),
      ),
    });
    const link = await enroll.startForUser({ userId: 1 } as never, 'https://dist.example.com');
    const profile = await enroll.profile(
      new URL(link.profileUrl).searchParams.get('c') ?? '',
      'https://dist.example.com',
    );
    expect(profile.signed).toBe(true);
    expect(cmsCertificates(profile.body).signers).toEqual([identity.der]);
    expect(parsePlistDict(cmsSignedContent(profile.body) ?? Buffer.alloc(0))).toMatchObject({
      PayloadType: 'Profile Service',
      PayloadContent: {
        URL: expect.stringMatching(/^https:\/\/dist\.example\.com\/api\/device_enroll\/callback\?s=\d+\./),
      },
    });
  });

  it('bounds the registrations one install page may start per hour', async () => {
    const token = (await server.request<InstallPage>('GET', '/api/app_version?url=demo&password=246810')).body.data
      .token;
    const start = () =>
      server.request('POST', '/api/device_enroll/install', {
        body: { url: 'demo' },
        headers: { 'app-version-token': token },
      });
    for (let i = 0; i < DEVICE_ENROLL_PER_APP_HOUR; i++) expect((await start()).status).toBe(200);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe(DeviceEnrollMessages.tooManyTries);
    server.clock.advance(60 * 60 * 1000 + 1);
    expect((await start()).status).toBe(200);
  });
});
