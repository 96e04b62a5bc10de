import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AppleAccountMessages,
  DeviceMessages,
  ResultCode,
  type AppleAccountRow,
  type DeviceEnrollLink,
  type DeviceRow,
  type InstallPage,
  type RegisterAppleDevicesResult,
} from '@release/contract';
import { FakeClock, startAppleFake, type AppleApiKey, type AppleFake } from '@release/fakes';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { callbackUrlOf, challengeOf, fakeDeviceAnswer } from '../src/modules/device-enroll/testing/device-answer.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const START = Date.UTC(2026, 10, 22, 8, 0, 0);
const TEAM = 'REVIEW1234';
const AT_APPLE = '00008030-001A2B3C4D5E6F70';
const VISITOR_PHONE = '00008110-000A1B2C3D4E5F99';
const ADMIN_PHONE = '00008120-0011223344556677';

describe.each(testDialects())('device review and Apple registration in the device list on %s', (dialect) => {
  let server: TestServer;
  let apple: AppleFake;
  let key: AppleApiKey;
  let admin: string;
  let tester: string;
  let appId: number;
  let accountId: number;

  const api = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<T>(method, path, { token, body });
  const devices = async (query = '') => (await api<DeviceRow[]>('GET', `/api/udids?pageSize=100${query}`)).body.data;
  const device = async (udid: string) => (await devices()).find((d) => d.udid === udid)!;
  const account = async () =>
    (await api<AppleAccountRow[]>('GET', '/api/apple_accounts')).body.data.find((a) => a.id === accountId)!;
  const exported = async () =>
    (await fetch(`${server.url}/api/udid/export?format=txt`, { headers: { token: admin } })).text();
  const register = (deviceIds?: number[]) =>
    api<RegisterAppleDevicesResult>('POST', '/api/apple_account/register_devices', { id: accountId, deviceIds });
  const review = (id: number, reviewStatus: 'confirmed' | 'rejected', token = admin) =>
    api('POST', '/api/udid/review', { id, reviewStatus }, token);
  const expectRefused = (res: ApiResponse, msg: string, status = 400) =>
    expect([res.status, res.body.msg]).toEqual([status, msg]);

  /** An install page visitor (who knows the password) registers their phone through the Profile Service. */
  async function visitorRegisters(udid: string) {
    const page = (await server.request<InstallPage>('GET', '/api/app_version?url=demo&password=246810')).body.data;
    const link = await server.request<DeviceEnrollLink>('POST', '/api/device_enroll/install', {
      body: { url: 'demo', versionId: page.versions[0]?.id },
      headers: { 'app-version-token': page.token },
    });
    const profile = await (await fetch(link.body.data.profileUrl)).text();
    const answer = fakeDeviceAnswer({ udid, challenge: challengeOf(profile), product: 'iPhone16,1' });
    const res = await fetch(callbackUrlOf(profile), {
      method: 'POST',
      headers: { 'content-type': 'application/pkcs7-signature' },
      body: new Uint8Array(answer),
      redirect: 'manual',
    });
    expect(res.status).toBe(301);
  }

  beforeAll(async () => {
    apple = await startAppleFake({
      clock: new FakeClock({ frozen: true, start: START }),
      teamId: TEAM,
      devices: [{ name: 'QA iPad', udid: AT_APPLE, deviceClass: 'IPAD', model: 'iPad (9th generation)' }],
    });
    apple.addBundleId({ identifier: 'com.example.demo', name: 'Demo' });
    key = apple.addKey();
    server = await startTestServer(dialect, { appleApiBaseUrl: apple.url });
    admin = await server.adminToken();
    tester = (await server.createUser({ username: 'tester', roleLevel: 30 })).token;
    appId = (
      await api<{ appId: number }>('POST', '/api/app', {
        appName: '演示',
        appType: 'native',
        password: '246810',
        path: 'demo',
      })
    ).body.data.appId;
    const fileKey = await transferFile(server, admin, 'demo.ipa', sampleIpa());
    await api('POST', '/api/v2/upload_app', { appId, s3Url: fileKey, description: '' });
    const added = await api<AppleAccountRow>('POST', '/api/apple_account', {
      name: '审核团队',
      issuerId: key.issuerId,
      keyId: key.keyId,
      privateKey: key.p8,
    });
    accountId = added.body.data.id;
    await api('POST', '/api/apple_account/sync', { id: accountId });
  });
  afterAll(async () => {
    await server?.close();
    await apple?.close();
  });
  beforeEach(() => apple.reset());

  it("an install page visitor's phone waits for 确认: listed as 待确认, filterable, and kept away from Apple and exports until confirmed", async () => {
    await visitorRegisters(VISITOR_PHONE);
    await api('POST', '/api/udid', { udid: ADMIN_PHONE, deviceName: '管理员添加', platform: 'ios' });
    const visitor = await device(VISITOR_PHONE);
    expect(visitor).toMatchObject({
      deviceName: 'iPhone16,1（演示）',
      remark: '安装页自助注册（演示）',
      reviewStatus: 'pending',
    });
    expect((await device(ADMIN_PHONE)).reviewStatus).toBe('confirmed');
    expect((await devices('&reviewStatus=pending')).map((d) => d.udid)).toEqual([VISITOR_PHONE]);
    expect((await devices('&reviewStatus=confirmed')).map((d) => d.udid).sort()).toEqual([AT_APPLE, ADMIN_PHONE]);

    // Pending: not exported, not offered for Apple, not registered in bulk, refused one by one.
    expect(await exported()).not.toContain(VISITOR_PHONE);
    expect((await account()).unregisteredDevices.map((d) => d.udid)).toEqual([ADMIN_PHONE]);
    expect((await register()).body.data).toEqual({
      registered: [{ udid: ADMIN_PHONE, deviceName: '管理员添加' }],
      failed: [],
    });
    expectRefused(await register([visitor.id]), DeviceMessages.notConfirmed('iPhone16,1（演示）'));
    expect(apple.state.devices.map((d) => d.udid)).not.toContain(VISITOR_PHONE);

    // 拒绝: stays listed as 已拒绝, still kept away, also from the one button that adds a phone to a build.
    expect((await review(visitor.id, 'rejected')).body.code).toBe(200);
    expect((await devices('&reviewStatus=rejected')).map((d) => [d.udid, d.reviewStatus])).toEqual([
      [VISITOR_PHONE, 'rejected'],
    ]);
    expect(await exported()).not.toContain(VISITOR_PHONE);
    expectRefused(await register([visitor.id]), DeviceMessages.rejected('iPhone16,1（演示）'));
    await api('POST', '/api/apple_account/bind', { id: accountId, appIds: [appId] });
    const version = (await api<Array<{ id: number }>>('GET', `/api/app_versions?appId=${appId}&pageNo=1&pageSize=10`))
      .body.data[0];
    expectRefused(
      await api('POST', '/api/apple_account/add_device_to_build', { appVersionId: version?.id, deviceId: visitor.id }),
      DeviceMessages.rejected('iPhone16,1（演示）'),
    );
    expect(apple.state.devices.map((d) => d.udid)).not.toContain(VISITOR_PHONE);

    // 确认: exported, offered, registered at Apple.
    expect((await review(visitor.id, 'confirmed')).body.code).toBe(200);
    expect((await device(VISITOR_PHONE)).reviewStatus).toBe('confirmed');
    expect(await exported()).toContain(`${VISITOR_PHONE}\tiPhone16,1（演示）`);
    expect((await account()).unregisteredDevices.map((d) => d.udid)).toEqual([VISITOR_PHONE]);
    expect((await register([visitor.id])).body.data.registered).toEqual([
      { udid: VISITOR_PHONE, deviceName: 'iPhone16,1（演示）' },
    ]);
    expect(apple.state.devices.map((d) => d.udid)).toContain(VISITOR_PHONE);
  });

  it('only admins review; an unknown device or status is refused', async () => {
    const udid = '00008110-000A1B2C3D4E5F98';
    await visitorRegisters(udid);
    const visitor = await device(udid);
    const refused = await review(visitor.id, 'confirmed', tester);
    expect([refused.status, refused.body.code]).toEqual([403, ResultCode.noPermission]);
    expect((await device(udid)).reviewStatus).toBe('pending');
    expectRefused(await review(999_999, 'confirmed'), DeviceMessages.deviceNotFound, 404);
    expect((await api('POST', '/api/udid/review', { id: visitor.id, reviewStatus: 'pending' })).status).toBe(400);
  });

  it("shows per synced Apple account whether each device is registered, and registers one with one call; Apple's errors are clear", async () => {
    const udid = '00008120-0011223344556688';
    const added = await api<{ id: number }>('POST', '/api/udid', { udid, deviceName: '新测试机', platform: 'ios' });
    expect((await device(AT_APPLE)).apple).toEqual([
      { accountId, accountName: '审核团队', registered: true, status: 'ENABLED' },
    ]);
    expect((await device(udid)).apple).toEqual([
      { accountId, accountName: '审核团队', registered: false, status: null },
    ]);

    expect((await register([added.body.data.id])).body.data).toEqual({
      registered: [{ udid, deviceName: '新测试机' }],
      failed: [],
    });
    expect((await device(udid)).apple).toEqual([
      { accountId, accountName: '审核团队', registered: true, status: 'ENABLED' },
    ]);

    // Registered at Apple by someone else since the last sync: Apple's duplicate is that device's message; a sync shows it.
    const other = await api<{ id: number }>('POST', '/api/udid', {
      udid: '00008120-00112233445566AA',
      deviceName: '别处注册',
      platform: 'ios',
    });
    apple.addDevice({ name: 'elsewhere', udid: '00008120-00112233445566aa' });
    expect((await register([other.body.data.id])).body.data.failed).toEqual([
      {
        udid: '00008120-00112233445566AA',
        deviceName: '别处注册',
        msg: AppleAccountMessages.deviceDuplicate('00008120-00112233445566AA'),
      },
    ]);
    await api('POST', '/api/apple_account/sync', { id: accountId });
    expect((await device('00008120-00112233445566AA')).apple[0]?.registered).toBe(true);

    // A revoked key stops the call with what to check.
    const third = await api<{ id: number }>('POST', '/api/udid', {
      udid: '00008120-00112233445566BB',
      deviceName: '密钥撤销时',
      platform: 'ios',
    });
    apple.revokeKey(key.keyId);
    expectRefused(await register([third.body.data.id]), AppleAccountMessages.notAuthorized);
    expect((await device('00008120-00112233445566BB')).apple[0]?.registered).toBe(false);
  });

  it('lists no Apple registration for accounts never synced', async () => {
    const second = apple.addKey();
    await api('POST', '/api/apple_account', {
      name: '未同步团队',
      issuerId: second.issuerId,
      keyId: second.keyId,
      privateKey: second.p8,
    });
    expect((await device(AT_APPLE)).apple.map((a) => a.accountName)).toEqual(['审核团队']);
  });
});
