import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { createLocalBlobStore } from '../src/storage/local-blob-store.ts';
import { createUrlSigner } from '../src/storage/url-signer.ts';
import { testDialects } from './helpers/dialects.ts';
import { ADMIN, TEST_SECRET, createTestClock, startTestServer, type TestServer } from './helpers/test-app.ts';
import { transferFile } from './helpers/upload-client.ts';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDialects())('abandoned uploads are cleaned up on %s', (dialect) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    token = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('removes unfinished transfers, unregistered packages and ownerless parts after a day, and only then', async () => {
    const blobs = server.built.core.shared.uploads;
    const issued = await server.request<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', {
      token,
      body: { appFileName: 'never.apk' },
    });
    const started = await server.request<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', {
      token,
      body: { appFileName: 'half.apk' },
    });
    await server.request('POST', '/api/multi_signed_url_upload', {
      token,
      body: { functionName: 'start', fileKey: started.body.data.appFile.fileKey, fileSize: 6 * 1024 * 1024 },
    });
    const completedKey = await transferFile(server, token, 'unregistered.apk', sampleApk());
    expect(await blobs.cleanUpAbandoned()).toBe(0);

    server.clock.advance(DAY + 60_000);
    expect(await blobs.cleanUpAbandoned()).toBeGreaterThanOrEqual(3);
    const states = await server.db.selectFrom('upload_sessions').select(['file_key', 'state']).execute();
    expect(states.every((s) => s.state === 'aborted')).toBe(true);
    expect(states.map((s) => s.file_key).sort()).toEqual(
      [issued.body.data.appFile.fileKey, started.body.data.appFile.fileKey, completedKey].sort(),
    );
    const appId = (
      await server.request<{ appId: number }>('POST', '/api/app', {
        token,
        body: { appName: 'A', appType: 'unity', password: '135790', path: 'aaaa' },
      })
    ).body.data.appId;
    const late = await server.request('POST', '/api/v2/upload_app', { token, body: { appId, s3Url: completedKey } });
    expect(late.status).toBe(400);
  });
});

// A process that dies mid-upload loses nothing: parts on disk and the session in the database survive.
describe('a server restart in the middle of an upload', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-restart-'));
  const clock = createTestClock();
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function boot() {
    const handle = await openDatabase({ sqliteFile: path.join(dir, 'release.db') });
    await migrateToLatest(handle);
    const blobs = createLocalBlobStore({ root: path.join(dir, 'blobs'), signer: createUrlSigner(TEST_SECRET), clock });
    const built = await buildApp({ db: handle.db, blobs, secret: TEST_SECRET, clock });
    await built.modules.roles.seedDefaults();
    await built.modules.users.ensureFirstAdmin(ADMIN.username, ADMIN.password, () => 'unused');
    await built.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    const call = async <T>(method: string, p: string, token: string, body?: unknown) => {
      const res = await fetch(`${url}${p}`, {
        method,
        headers: { token, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as { code: number; msg: string; data: T };
    };
    return {
      url,
      call,
      stop: async () => {
        await built.app.close();
        await handle.destroy();
      },
    };
  }

  it('resumes with the same part URLs after the restart and registers the package', async () => {
    const apk = sampleApk({ extra: { 'assets/pad.bin': randomBytes(7 * 1024 * 1024) } });
    let server = await boot();
    const token = (
      await server.call<{ token: string }>('POST', '/api/user/login', '', {
        username: ADMIN.username,
        password: sha256Hex(ADMIN.password),
      })
    ).data.token;
    const appId = (
      await server.call<{ appId: number }>('POST', '/api/app', token, {
        appName: 'R',
        appType: 'native',
        password: '135790',
        path: 'rest',
      })
    ).data.appId;
    const fileKey = (
      await server.call<{ appFile: { fileKey: string } }>('POST', '/api/get_signed_url', token, {
        appFileName: 'r.apk',
      })
    ).data.appFile.fileKey;
    const start = (
      await server.call<{
        uploadId: string;
        partSize: number;
        uploadParamsList: Array<{ partNo: number; signedUrl: string }>;
      }>('POST', '/api/multi_signed_url_upload', token, { functionName: 'start', fileKey, fileSize: apk.length })
    ).data;
    const put = async (base: string, p: { partNo: number; signedUrl: string }) => {
      const signed = new URL(p.signedUrl);
      const res = await fetch(`${base}${signed.pathname}${signed.search}`, {
        method: 'PUT',
        body: apk.subarray((p.partNo - 1) * start.partSize, p.partNo * start.partSize),
      });
      return { partNo: p.partNo, etag: res.headers.get('etag') ?? '' };
    };
    const [first, second] = start.uploadParamsList;
    const tag1 = await put(server.url, first!);
    await server.stop();

    server = await boot();
    // The session survives too: the same token still works after the restart.
    const tag2 = await put(server.url, second!);
    const finish = await server.call('POST', '/api/multi_signed_url_upload', token, {
      functionName: 'finish',
      fileKey,
      uploadId: start.uploadId,
      tags: [tag1, tag2],
    });
    expect(finish.code).toBe(200);
    const version = await server.call<{ indexNo: number; appSize: number }>('POST', '/api/v2/upload_app', token, {
      appId,
      s3Url: fileKey,
    });
    expect(version.data).toMatchObject({ indexNo: 1, appSize: apk.length });
    await server.stop();
  });
});
