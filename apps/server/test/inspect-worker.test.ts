import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema } from '../src/db/database.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { heavyInfoPlistIpa, sharedNestingIpa } from '@release/inspect/testing/hostile/attacks.ts';
import { sampleIpa } from '@release/inspect/testing/sample-packages.ts';
import { apiOf, ensureServerBundle, startCompiledServer } from './helpers/compiled-server.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { whileListingApps } from './helpers/keeps-answering.ts';
import { startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

/**
 * Package inspection runs in worker threads (packages/inspect/src/worker): a package past the time limit is refused
 * with a clear message and not kept, the server answers meanwhile, and the compiled server (`npm start`)
 * finds its worker beside its bundle.
 */
describe.each(testDialects())('package inspection workers on %s', (dialect) => {
  let heavy: Buffer;
  beforeAll(async () => {
    // Within every parser limit, ~3 s of work on a quiet machine: what a time limit of 1.5 s stops, where a small
    // package in a fresh worker (at nice 10, on a loaded machine) stays well within it.
    heavy = heavyInfoPlistIpa(800_000);
    // Building apps/server/dist when stale takes a while on a loaded machine; `npm test` has built it already.
    await ensureServerBundle();
  }, 180_000);

  describe('with a 1.5 s time limit', () => {
    let server: TestServer;
    let admin: string;
    let appId: number;
    beforeAll(async () => {
      server = await startTestServer(dialect, { inspection: { workers: 1, timeoutMs: 1_500, maxHeapMb: 256 } });
      admin = await server.adminToken();
      appId = (
        await server.request<{ appId: number }>('POST', '/api/app', {
          token: admin,
          body: { appName: '演示', appType: 'native', password: '246810', path: 'demo' },
        })
      ).body.data.appId;
    });
    afterAll(() => server?.close());

    it('refuses the package that outlasts it with a clear message, keeps nothing, answers meanwhile, and inspects the next one', async () => {
      const fileKey = await transferFile(server, admin, 'heavy.ipa', heavy);
      const upload = await whileListingApps(server, admin, () =>
        server.request('POST', '/api/v2/upload_app', {
          token: admin,
          body: { appId, s3Url: fileKey, description: '' },
        }),
      );
      expect([upload.result.status, upload.result.body.msg]).toEqual([
        400,
        '安装包解析超时（超过 1.5 秒），文件可能已损坏或结构异常',
      ]);
      expect(upload.statuses.every((status) => status === 200)).toBe(true);
      // The refused upload is gone: registering it again finds nothing to register.
      expect(
        (
          await server.request('POST', '/api/v2/upload_app', {
            token: admin,
            body: { appId, s3Url: fileKey, description: '' },
          })
        ).status,
      ).toBe(400);
      const next = await transferFile(server, admin, 'demo.ipa', sampleIpa());
      const published = await server.request<{ appVersion: string; bundleId: string }>('POST', '/api/v2/upload_app', {
        token: admin,
        body: { appId, s3Url: next, description: '' },
      });
      expect(published.body.data).toMatchObject({ appVersion: '1.2.3', bundleId: 'com.example.demo' });
    });
  });

  it('the compiled server (as `npm start` runs it) inspects in its bundled worker', { timeout: 90_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-compiled-'));
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const server = await startCompiledServer({
      DATA_DIR: dataDir,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'admin-pass-123',
      ...(dialect === 'postgres'
        ? { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: schema, SECRET_KEY: randomBytes(32).toString('hex') }
        : {}),
    });
    try {
      const api = apiOf(server.url);
      const token = (
        await api.request<{ token: string }>('POST', '/api/user/login', {
          body: { username: 'admin', password: sha256Hex('admin-pass-123') },
        })
      ).body.data.token;
      const appId = (
        await api.request<{ appId: number }>('POST', '/api/app', {
          token,
          body: { appName: '演示', appType: 'native', password: '246810', path: 'demo' },
        })
      ).body.data.appId;
      const hostile = await transferFile(api, token, 'hostile.ipa', sharedNestingIpa(26));
      const refused = await api.request('POST', '/api/v2/upload_app', {
        token,
        body: { appId, s3Url: hostile, description: '' },
      });
      expect([refused.status, refused.body.msg]).toEqual([400, '无法读取安装包信息：Info.plist 无法解析']);
      const honest = await transferFile(api, token, 'demo.ipa', sampleIpa());
      const published = await api.request<{ appVersion: string; iconUrl: string }>('POST', '/api/v2/upload_app', {
        token,
        body: { appId, s3Url: honest, description: '' },
      });
      expect(published.body.data.appVersion).toBe('1.2.3');
      expect((await fetch(published.body.data.iconUrl)).headers.get('content-type')).toBe('image/png');
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
    }
  });
});
