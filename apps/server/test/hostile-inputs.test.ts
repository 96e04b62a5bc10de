import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceEnrollMessages, type DeviceEnrollLink } from '@release/contract';
import { deepXmlIpa, sharedNestingDeviceAnswer, sharedNestingIpa } from '@release/inspect/testing/hostile/attacks.ts';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { callbackUrlOf, challengeOf } from '../src/modules/device-enroll/testing/device-answer.ts';
import { testDialects } from './helpers/dialects.ts';
import { ANSWER_LIMIT_MS, whileListingApps } from './helpers/keeps-answering.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

/**
 * The attacks of issue 15 through real HTTP: each is refused with a clear message while another client's
 * `GET /api/apps` keeps answering (each request within ANSWER_LIMIT_MS; they took 19-79 s before).
 */
describe.each(testDialects())('hostile inputs on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let appId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    const user = await server.createUser({ username: 'editor', roleLevel: 30 });
    editor = user.token;
    const created = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: {
        appName: '演示',
        appType: 'native',
        password: '246810',
        path: 'demo',
        distributeUsers: [{ userId: user.userId, permit: 'edit' }],
      },
    });
    appId = created.body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function postAnswer(url: string, body: Buffer) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/pkcs7-signature' },
      body: new Uint8Array(body),
      redirect: 'manual',
    });
    return { status: response.status, body: (await response.json()) as { msg: string } };
  }

  it('answers the 1.5 KB shared-reference device answer at once, anonymous or through a real registration link', async () => {
    const body = sharedNestingDeviceAnswer(27);
    expect(body.length).toBeLessThan(1_600);
    const bare = `${server.url}/api/device_enroll/callback`;
    const anonymous = await whileListingApps(server, admin, () => postAnswer(bare, body));
    // Without a registration named in the URL the body is not even parsed.
    expect(anonymous.result).toEqual({
      status: 404,
      body: expect.objectContaining({ msg: DeviceEnrollMessages.linkMissing }),
    });
    expect(anonymous.statuses.every((status) => status === 200)).toBe(true);

    // With a genuine link (a signed-in user's), the body is parsed within the plist limits and refused.
    const link = (await server.request<DeviceEnrollLink>('POST', '/api/device_enroll', { token: editor, body: {} }))
      .body.data.profileUrl;
    const profile = await (await fetch(link)).text();
    const hostile = sharedNestingDeviceAnswer(27, {
      UDID: '00008110-000A1B2C3D4E5F99',
      CHALLENGE: challengeOf(profile),
    });
    const named = await whileListingApps(server, admin, () => postAnswer(callbackUrlOf(profile), hostile));
    expect(named.result).toEqual({
      status: 400,
      body: expect.objectContaining({ msg: DeviceEnrollMessages.bodyUnreadable }),
    });
    expect(named.statuses.every((status) => status === 200)).toBe(true);
  });

  it.each([
    ['a binary Info.plist sharing one array 24 levels deep', () => sharedNestingIpa(24)],
    ['a binary Info.plist sharing one array 26 levels deep (it ended the process)', () => sharedNestingIpa(26)],
    ['an XML Info.plist nested 300,000 levels deep', () => deepXmlIpa(300_000)],
  ])('refuses an ipa with %s and keeps serving', async (_label, build) => {
    const fileKey = await transferFile(server, editor, 'hostile.ipa', build());
    const upload = await whileListingApps(server, admin, () =>
      server.request('POST', '/api/v2/upload_app', { token: editor, body: { appId, s3Url: fileKey, description: '' } }),
    );
    expect(upload.result.status).toBe(400);
    expect(upload.result.body.msg).toBe('无法读取安装包信息：Info.plist 无法解析');
    expect(upload.answered).toBeGreaterThan(0);
    expect(
      upload.statuses.every((status) => status === 200),
      `GET /api/apps within ${ANSWER_LIMIT_MS} ms: ${upload.statuses}`,
    ).toBe(true);
    // Nothing was kept, and an honest package still goes through.
    const versions = await server.request<unknown[]>('GET', `/api/app_versions?appId=${appId}&pageNo=1&pageSize=20`, {
      token: editor,
    });
    expect(versions.body.total).toBe(0);
  });

  it('still publishes an honest ipa after the attacks', async () => {
    const fileKey = await transferFile(server, editor, 'demo.ipa', sampleIpa());
    const res = await server.request<{ appVersion: string }>('POST', '/api/v2/upload_app', {
      token: editor,
      body: { appId, s3Url: fileKey, description: '' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.appVersion).toBe('1.2.3');
  });
});
