import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AppleAccountMessages,
  ResultCode,
  type AppleAccountRow,
  type AppleSyncResult,
  type CertificateRow,
  type RegenerateAppleProfileResult,
  type RegisterAppleDevicesResult,
} from '@release/contract';
import { FakeClock, readProfilePlist, startAppleFake, type AppleApiKey, type AppleFake } from '@release/fakes';
import { makeAppleIdentity, makeP12, makeSignedProfile } from '@release/inspect/testing/identities.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, TEST_CLOCK_START, type ApiResponse, type TestServer } from './helpers/test-app.ts';

// The test clock stands at 2026-11-22 08:00; the identity and its profile are current then.
const START = TEST_CLOCK_START;
const TEAM = 'ABCDE12345';
const distribution = makeAppleIdentity({
  teamId: TEAM,
  commonName: `Apple Distribution: 示例科技 (${TEAM})`,
  serial: '5d1e7a',
  now: START,
});
const profileSigner = makeAppleIdentity({
  commonName: 'Apple iPhone OS Provisioning Profile Signing',
  teamId: 'APPLE',
  now: START,
});
const PASSWORD = 'p12-pass-2026';
const uploadedProfile = makeSignedProfile(
  [distribution],
  profileSigner,
  {
    Name: 'com.example.demo AdHoc',
    UUID: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
    TeamIdentifier: [TEAM],
    ProvisionedDevices: ['00008030-001A2B3C4D5E6F70'],
    Entitlements: { 'application-identifier': `${TEAM}.com.example.demo`, 'get-task-allow': false },
  },
  START,
);

describe.each(testDialects())('Apple accounts on %s', (dialect) => {
  let server: TestServer;
  let apple: AppleFake;
  let key: AppleApiKey;
  let admin: string;
  let plain: string;
  let certificateId: number;

  const api = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<T>(method, path, { token, body });
  const accountBody = (k: AppleApiKey, name = '示例科技') => ({
    name,
    issuerId: k.issuerId,
    keyId: k.keyId,
    privateKey: k.p8,
  });
  const listAccounts = async () => (await api<AppleAccountRow[]>('GET', '/api/apple_accounts')).body.data;
  const expectRefused = (res: ApiResponse, msg: string, status = 400) =>
    expect([res.status, res.body.msg]).toEqual([status, msg]);

  beforeAll(async () => {
    apple = await startAppleFake({
      clock: new FakeClock({ frozen: true, start: START }),
      teamId: TEAM,
      devices: [
        { name: 'QA iPad', udid: '00008030-001A2B3C4D5E6F70', deviceClass: 'IPAD', model: 'iPad (9th generation)' },
      ],
    });
    apple.addBundleId({ identifier: 'com.example.demo', name: 'Demo' });
    apple.addBundleId({ identifier: 'com.example.demo.widget', name: 'Demo Widget' });
    apple.addCertificate({ der: distribution.der, certificateType: 'DISTRIBUTION' });
    key = apple.addKey();
    server = await startTestServer(dialect, { appleApiBaseUrl: apple.url });
    admin = await server.adminToken();
    plain = (await server.createUser({ username: 'tester', roleLevel: 30 })).token;
    const form = new FormData();
    form.append('password', PASSWORD);
    form.append('p12', new Blob([new Uint8Array(makeP12(distribution, PASSWORD))]), 'dist.p12');
    form.append('profiles', new Blob([new Uint8Array(uploadedProfile)]), 'demo.mobileprovision');
    const uploaded = (await (
      await fetch(`${server.url}/api/cert_upload`, { method: 'POST', headers: { token: admin }, body: form })
    ).json()) as ApiResponse<CertificateRow>['body'];
    expect(uploaded.code).toBe(200);
    certificateId = uploaded.data.id;
  });
  afterAll(async () => {
    await server?.close();
    await apple?.close();
  });
  beforeEach(() => apple.reset());

  it('refuses non-admins on every Apple account call', async () => {
    for (const [method, path] of [
      ['GET', '/api/apple_accounts'],
      ['POST', '/api/apple_account'],
      ['POST', '/api/apple_account/update'],
      ['POST', '/api/apple_account/bind'],
      ['DELETE', '/api/apple_account?id=1'],
      ['POST', '/api/apple_account/sync'],
      ['POST', '/api/apple_account/register_devices'],
      ['POST', '/api/apple_account/profile'],
    ] as const) {
      const res = await api(method, path, method === 'POST' ? { id: 1 } : undefined, plain);
      expect([path, res.status, res.body.code]).toEqual([path, 403, ResultCode.noPermission]);
    }
    expect(apple.requests).toHaveLength(0);
  });

  it('adds an account after a real call to Apple; the key is sealed and never returned', async () => {
    const res = await api<AppleAccountRow>('POST', '/api/apple_account', accountBody(key));
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({
      name: '示例科技',
      issuerId: key.issuerId,
      keyId: key.keyId,
      teamId: TEAM,
      lastSync: null,
    });
    expect(apple.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/bundleIds 200']);
    const listed = JSON.stringify(await api('GET', '/api/apple_accounts'));
    expect(listed).not.toContain('PRIVATE KEY');
    expect(listed).not.toContain(key.p8.split('\n')[1]);
    const stored = await server.db
      .selectFrom('apple_accounts')
      .select('private_key_sealed')
      .where('key_id', '=', key.keyId)
      .executeTakeFirstOrThrow();
    expect(stored.private_key_sealed).toMatch(/^v1\./);
    expect(stored.private_key_sealed).not.toContain('PRIVATE KEY');
    expectRefused(
      await api('POST', '/api/apple_account', accountBody(key)),
      AppleAccountMessages.keyIdExists(key.keyId),
      409,
    );
  });

  it('refuses a key Apple does not accept (401), an unreadable .p8, and a key id of the wrong shape', async () => {
    const other = apple.addKey();
    const wrongIssuer = { ...accountBody(other, '错误'), issuerId: '11111111-2222-3333-4444-555555555555' };
    expectRefused(await api('POST', '/api/apple_account', wrongIssuer), AppleAccountMessages.notAuthorized);
    expect(apple.lastAuthFailure?.reason).toBe('iss does not match the key');
    expectRefused(
      await api('POST', '/api/apple_account', {
        ...accountBody(other),
        privateKey: '-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----',
      }),
      AppleAccountMessages.p8Invalid,
    );
    const badKeyId = await api('POST', '/api/apple_account', { ...accountBody(other), keyId: 'short' });
    expect([badKeyId.status, badKeyId.body.msg]).toEqual([400, expect.stringContaining('密钥 ID 格式不正确')]);
    expect((await listAccounts()).map((a) => a.keyId)).not.toContain(other.keyId);
  });

  it('syncs devices, certificates and bundle ids; Apple devices join the local list and match the uploaded certificate', async () => {
    const [account] = await listAccounts();
    for (let i = 0; i < 3; i++)
      apple.addDevice({ name: `测试机 ${i}`, udid: `0000811${i}-000A1B2C3D4E5F6${i}`, model: 'iPhone 15' });
    const res = await api<AppleSyncResult>('POST', '/api/apple_account/sync', { id: account?.id });
    expect(res.body.data).toEqual({ devices: 4, certificates: 1, bundleIds: 2, newLocalDevices: 4 });
    const [synced] = await listAccounts();
    expect(synced?.lastSync).toEqual(res.body.data);
    expect(synced?.certificates).toEqual([
      expect.objectContaining({
        certificateType: 'DISTRIBUTION',
        localCertificateId: certificateId,
        serialNumber: '5D1E7A',
      }),
    ]);
    expect(synced?.bundleIds.map((b) => b.identifier)).toEqual(['com.example.demo', 'com.example.demo.widget']);
    expect(synced?.devices.every((d) => d.localDeviceId !== null)).toBe(true);
    const local = await api<Array<{ udid: string; model: string | null }>>('GET', '/api/udids?pageSize=100');
    expect(local.body.data.map((d) => d.udid).sort()).toEqual(synced?.devices.map((d) => d.udid).sort());
    // A second sync finds nothing new locally.
    expect(
      (await api<AppleSyncResult>('POST', '/api/apple_account/sync', { id: account?.id })).body.data.newLocalDevices,
    ).toBe(0);
  });

  it('registers new local devices at Apple; a duplicate and the device limit are reported per device', async () => {
    const [account] = await listAccounts();
    await api('POST', '/api/udid', { udid: '00008120-0011223344556677', deviceName: '新测试机', platform: 'ios' });
    expect((await listAccounts())[0]?.unregisteredDevices.map((d) => d.udid)).toEqual(['00008120-0011223344556677']);
    const res = await api<RegisterAppleDevicesResult>('POST', '/api/apple_account/register_devices', {
      id: account?.id,
    });
    expect(res.body.data).toEqual({
      registered: [{ udid: '00008120-0011223344556677', deviceName: '新测试机' }],
      failed: [],
    });
    expect(apple.state.devices.map((d) => d.udid)).toContain('00008120-0011223344556677');
    const [after] = await listAccounts();
    expect(after?.unregisteredDevices).toEqual([]);
    expect(after?.devices.find((d) => d.udid === '00008120-0011223344556677')?.status).toBe('ENABLED');
    expectRefused(
      await api('POST', '/api/apple_account/register_devices', { id: account?.id }),
      AppleAccountMessages.nothingToRegister,
    );

    // Registered at Apple meanwhile by someone else: Apple's duplicate becomes a clear message for that device.
    const dup = await api<{ id: number }>('POST', '/api/udid', {
      udid: '00008120-00112233445566AA',
      deviceName: '已在苹果',
      platform: 'ios',
    });
    apple.addDevice({ name: 'elsewhere', udid: '00008120-00112233445566aa' });
    await api('POST', '/api/udid', { udid: '00008120-00112233445566BB', deviceName: '超出上限', platform: 'ios' });
    apple.setDeviceLimit(apple.state.devices.filter((d) => d.deviceClass === 'IPHONE').length);
    const mixed = await api<RegisterAppleDevicesResult>('POST', '/api/apple_account/register_devices', {
      id: account?.id,
    });
    expect(mixed.body.data.registered).toEqual([]);
    expect(mixed.body.data.failed).toEqual([
      {
        udid: '00008120-00112233445566AA',
        deviceName: '已在苹果',
        msg: AppleAccountMessages.deviceDuplicate('00008120-00112233445566AA'),
      },
      {
        udid: '00008120-00112233445566BB',
        deviceName: '超出上限',
        msg: AppleAccountMessages.deviceLimit(
          'Your development team has reached the maximum number of registered iPhone devices.',
        ),
      },
    ]);
    await api('DELETE', `/api/udid?id=${dup.body.data.id}`);
    await api('POST', '/api/apple_account/sync', { id: account?.id });
  });

  it('regenerates the ad hoc profile with every enabled device and stores it on the matching certificate', async () => {
    const [account] = await listAccounts();
    const res = await api<RegenerateAppleProfileResult>('POST', '/api/apple_account/profile', {
      id: account?.id,
      bundleId: 'com.example.demo',
      profileType: 'ad-hoc',
    });
    expect(res.body.code).toBe(200);
    const enabled = apple.state.devices.filter((d) => d.status === 'ENABLED').map((d) => d.udid);
    expect(res.body.data).toMatchObject({
      certificateId,
      profile: {
        type: 'ad-hoc',
        bundleId: 'com.example.demo',
        appId: `${TEAM}.com.example.demo`,
        listsCertificate: true,
      },
    });
    expect([...res.body.data.profile.devices].sort()).toEqual([...enabled].sort());
    expect(res.body.data.profile.devices).toContain('00008120-0011223344556677');
    const certs = await api<CertificateRow[]>('GET', '/api/cert_list');
    const profiles = certs.body.data.find((c) => c.id === certificateId)?.profiles ?? [];
    // The regenerated profile replaced the uploaded one of the same bundle id and type.
    expect(profiles.map((p) => [p.uuid, p.type, p.bundleId])).toEqual([
      [res.body.data.profile.uuid, 'ad-hoc', 'com.example.demo'],
    ]);
    const atApple = apple.state.profiles.find((p) => p.uuid === res.body.data.profile.uuid);
    expect(readProfilePlist(atApple?.profileContent ?? '').ProvisionedDevices).toEqual(res.body.data.profile.devices);
    const identity = await server.built.core.shared.certificates.loadSigningIdentity(certificateId);
    expect(identity.profiles.map((p) => p.uuid)).toEqual([res.body.data.profile.uuid]);

    // Again after a new device: the old profile is deleted at Apple and made anew with the same name.
    apple.addDevice({ name: '又一台', udid: '00008130-0011223344556699' });
    const again = await api<RegenerateAppleProfileResult>('POST', '/api/apple_account/profile', {
      id: account?.id,
      bundleId: 'com.example.demo',
      profileType: 'ad-hoc',
    });
    expect(again.body.data.profile.devices).toContain('00008130-0011223344556699');
    expect(apple.state.profiles.map((p) => p.name)).toEqual([res.body.data.profile.name]);
    expect(apple.requests.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([204]);

    // Apple may hold a deleted profile's name for a while: the new one gets a dated name instead of failing.
    apple.setProfileNameHold(60_000);
    const held = await api<RegenerateAppleProfileResult>('POST', '/api/apple_account/profile', {
      id: account?.id,
      bundleId: 'com.example.demo',
      profileType: 'ad-hoc',
    });
    expect(held.body.data.profile.name).toBe(`${res.body.data.profile.name} 2026-11-22 08:00`);
    expect(apple.state.profiles.map((p) => p.name)).toEqual([held.body.data.profile.name]);

    expectRefused(
      await api('POST', '/api/apple_account/profile', { id: account?.id, bundleId: 'com.example.nothere' }),
      AppleAccountMessages.bundleIdNotFound('com.example.nothere'),
    );
    expectRefused(
      await api('POST', '/api/apple_account/profile', {
        id: account?.id,
        bundleId: 'com.example.demo',
        profileType: 'development',
      }),
      AppleAccountMessages.noCertificate('开发'),
    );
  });

  it('turns an expired agreement, a revoked key and the rate limit into clear messages', async () => {
    const [account] = await listAccounts();
    // One spurious 401 (Apple sends them now and then) is retried with a fresh token and goes unnoticed.
    apple.injectError({
      route: 'certificates.list',
      status: 401,
      body: {
        errors: [
          {
            status: '401',
            code: 'NOT_AUTHORIZED',
            title: 'Authentication credentials are missing or invalid.',
            detail: '',
          },
        ],
      },
    });
    expect((await api<AppleSyncResult>('POST', '/api/apple_account/sync', { id: account?.id })).body.code).toBe(200);
    expect(apple.requests.filter((r) => r.path === '/v1/certificates').map((r) => r.status)).toEqual([401, 200]);
    apple.reset();
    apple.setAgreementExpired(true);
    expectRefused(
      await api('POST', '/api/apple_account/sync', { id: account?.id }),
      AppleAccountMessages.agreementExpired,
    );
    await api('POST', '/api/udid', { udid: '00008140-0011223344556600', deviceName: '协议过期时', platform: 'ios' });
    expectRefused(
      await api('POST', '/api/apple_account/register_devices', { id: account?.id }),
      AppleAccountMessages.agreementExpired,
    );
    apple.reset();
    apple.setHourlyLimit(0);
    expectRefused(
      await api('POST', '/api/apple_account/sync', { id: account?.id }),
      AppleAccountMessages.rateLimited,
      429,
    );
    apple.reset();
    apple.revokeKey(key.keyId);
    expectRefused(
      await api('POST', '/api/apple_account/sync', { id: account?.id }),
      AppleAccountMessages.notAuthorized,
    );
    // Apple's spurious 401 is retried once with a fresh token.
    expect(apple.requests.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(2);
  });

  it('edits an account (a new .p8 is tried first), binds it to certificates, and deletes it', async () => {
    const [account] = await listAccounts();
    const fresh = apple.addKey({ issuerId: key.issuerId });
    const edited = await api<AppleAccountRow>('POST', '/api/apple_account/update', {
      id: account?.id,
      name: '改名',
      issuerId: fresh.issuerId,
      keyId: fresh.keyId,
      privateKey: fresh.p8,
      remark: '换了密钥',
    });
    expect(edited.body.data).toMatchObject({ name: '改名', keyId: fresh.keyId, remark: '换了密钥' });
    expect((await api<AppleSyncResult>('POST', '/api/apple_account/sync', { id: account?.id })).body.code).toBe(200);
    const renamed = await api<AppleAccountRow>('POST', '/api/apple_account/update', {
      id: account?.id,
      name: '只改名',
      issuerId: fresh.issuerId,
      keyId: fresh.keyId,
    });
    expect(renamed.body.data.name).toBe('只改名');

    const bound = await api<AppleAccountRow>('POST', '/api/apple_account/bind', {
      id: account?.id,
      certificateIds: [certificateId],
      appIds: [],
    });
    expect(bound.body.data).toMatchObject({ certificateIds: [certificateId], appIds: [] });
    expectRefused(
      await api('POST', '/api/apple_account/bind', { id: account?.id, appIds: [99999] }),
      AppleAccountMessages.appNotFound(99999),
    );
    expectRefused(
      await api('POST', '/api/apple_account/bind', { id: 99999, appIds: [] }),
      AppleAccountMessages.accountNotFound,
      404,
    );

    expect((await api('DELETE', `/api/apple_account?id=${account?.id}`)).body.code).toBe(200);
    expect(await listAccounts()).toEqual([]);
    expectRefused(
      await api('POST', '/api/apple_account/sync', { id: account?.id }),
      AppleAccountMessages.accountNotFound,
      404,
    );
  });
});
