import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileJson } from '../src/fuzz/campaigns-json.ts';
import { hostilePackages } from '../src/fuzz/campaigns-packages.ts';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { testDialects } from './helpers/dialects.ts';
import { ANSWER_LIMIT_MS, whileListingApps } from './helpers/keeps-answering.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

/**
 * The worst inputs of the fuzz suite (apps/server/src/fuzz, the slowest or largest of their parsers) sent
 * through real HTTP: each is answered — published, or refused with a Chinese message — while another client's
 * `GET /api/apps` keeps answering, each list within ANSWER_LIMIT_MS.
 */
const WORST_PACKAGES = {
  'ipa: binary Info.plist sharing one array 30 levels deep': {
    status: 400,
    msg: '无法读取安装包信息：Info.plist 无法解析',
  },
  'ipa: XML Info.plist nested 300,000 deep': { status: 400, msg: '无法读取安装包信息：Info.plist 无法解析' },
  'ipa: Info.plist of 50,000 keys': { status: 200 },
  'ipa: 65,000 entries': { status: 400, msg: '无法读取安装包信息：Info.plist 无法解析' },
  'ipa: Info.plist of 60 MB of zeros, deflated': {
    status: 400,
    msg: '安装包中的文件过大，无法读取：Payload/A.app/Info.plist',
  },
  'ipa: zip64 record claiming 2^40 entries': { status: 400, msg: '文件已损坏或不完整' },
  'apk: label through 64 self-referring configurations': { status: 200 },
  'aab: manifest nested 1,000 deep': { status: 400, msg: '无法读取安装包信息：AndroidManifest.xml 无法解析' },
} as const;

const WORST_BODIES = {
  'arrays nested 524,287 deep (1 MiB)': { status: 400, msg: '参数错误：body 嵌套层级过深' },
  'objects nested 100,000 deep': { status: 400, msg: '参数错误：body 嵌套层级过深' },
  'arrays opened 1 MiB deep, never closed': { status: 400, msg: '请求体不是合法的JSON' },
  '100,000 keys': { status: 413, msg: '请求体过大' },
  'a number of 1 MiB digits': { status: 400 },
  '__proto__ and constructor keys': { status: 400, msg: '请求体不是合法的JSON' },
} as const;

const CHINESE = /[\u4e00-\u9fff]/;

describe.each(testDialects())('the fuzz suite’s worst inputs over HTTP on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let appId: number;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.adminToken();
    const created = await server.request<{ appId: number }>('POST', '/api/app', {
      token: admin,
      body: { appName: '模糊测试', appType: 'native', password: '246810', path: 'fuzz' },
    });
    appId = created.body.data.appId;
  });
  afterAll(async () => {
    await server?.close();
  });

  const packages = hostilePackages(sampleIpa()).filter((item) => item.label in WORST_PACKAGES);

  it.each(packages.map((item) => [item.label, item] as const))('uploads %s and keeps serving', async (label, item) => {
    const expected = WORST_PACKAGES[label as keyof typeof WORST_PACKAGES];
    const fileKey = await transferFile(server, admin, 'fuzz.bin', item.bytes());
    const upload = await whileListingApps(server, admin, () =>
      server.request('POST', '/api/v2/upload_app', {
        token: admin,
        body: { appId, s3Url: fileKey, description: '', allowOtherBundleId: true },
      }),
    );
    expect({ status: upload.result.status, msg: upload.result.body.msg }, label).toEqual(
      expect.objectContaining(expected),
    );
    if (upload.result.status !== 200) expect(upload.result.body.msg).toMatch(CHINESE);
    expect(upload.answered).toBeGreaterThan(0);
    expect(
      upload.statuses.every((status) => status === 200),
      `GET /api/apps within ${ANSWER_LIMIT_MS} ms: ${upload.statuses}`,
    ).toBe(true);
  });

  const bodies = hostileJson().filter((item) => item.label in WORST_BODIES);

  it.each(bodies.map((item) => [item.label, item] as const))(
    'refuses a JSON body of %s and keeps serving',
    async (label, item) => {
      const expected = WORST_BODIES[label as keyof typeof WORST_BODIES];
      const sent = await whileListingApps(server, admin, async () => {
        const response = await fetch(`${server.url}/api/app`, {
          method: 'POST',
          headers: { token: admin, 'content-type': 'application/json' },
          body: new Uint8Array(item.bytes()),
        });
        return { status: response.status, body: (await response.json()) as { msg: string } };
      });
      expect({ status: sent.result.status, msg: sent.result.body.msg }, label).toEqual(
        expect.objectContaining(expected),
      );
      expect(sent.result.body.msg).toMatch(CHINESE);
      expect(
        sent.statuses.every((status) => status === 200),
        `GET /api/apps within ${ANSWER_LIMIT_MS} ms: ${sent.statuses}`,
      ).toBe(true);
    },
  );

  it('still publishes an honest ipa and lists it', async () => {
    const fileKey = await transferFile(server, admin, 'demo.ipa', sampleIpa());
    const published = await server.request<{ appVersion: string }>('POST', '/api/v2/upload_app', {
      token: admin,
      body: { appId, s3Url: fileKey, description: '', allowOtherBundleId: true },
    });
    expect([published.status, published.body.data.appVersion]).toEqual([200, '1.2.3']);
  });
});
