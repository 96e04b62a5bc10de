import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema } from '../apps/server/src/db/database.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { S3_TEST_CREDENTIALS, startS3Server } from '../apps/server/test/helpers/s3-server.ts';
import { TEST_POSTGRES_URL } from '../apps/server/test/helpers/dialects.ts';
import { E2E_ADMIN, startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

async function call<T>(base: string, method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; msg: string; data: T };
  if (json.code !== 200) throw new Error(`${method} ${path}: ${json.msg}`);
  return json.data;
}

// N stateless processes behind a load balancer: the database and the store are all they share.
describe('two server processes on one PostgreSQL and one S3 store', () => {
  const schema = `two_${randomBytes(4).toString('hex')}`;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let first: ServerProcess;
  let second: ServerProcess;

  beforeAll(async () => {
    s3 = await startS3Server();
    const env = {
      DATABASE_URL: TEST_POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      // With DATABASE_URL every process is given the same key (it is never generated into the shared database).
      SECRET_KEY: randomBytes(48).toString('base64url'),
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    };
    // Started together, as a deployment does: migrations, roles and the first admin must not collide.
    [first, second] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await s3?.close();
    await dropPostgresSchema(TEST_POSTGRES_URL, schema);
  });

  it('a package uploaded through one is listed, inspected and downloadable through the other', async () => {
    const login = await call<{ token: string }>(first.url, 'POST', '/api/user/login', '', {
      username: E2E_ADMIN.username,
      password: sha(E2E_ADMIN.password),
    });
    const token = login.token;
    // The session made by the first process is valid on the second.
    await call(second.url, 'GET', '/api/user/me', token);
    const { appId } = await call<{ appId: number }>(first.url, 'POST', '/api/app', token, {
      appName: '双进程',
      appType: 'native',
      password: '246810',
      path: 'twin',
    });

    const apk = sampleApk({ versionName: '9.9.9', extra: { 'assets/pad.bin': randomBytes(7 * 1024 * 1024) } });
    const keys = await call<{ appFile: { fileKey: string } }>(first.url, 'POST', '/api/get_signed_url', token, {
      appFileName: 'twin.apk',
    });
    const fileKey = keys.appFile.fileKey;
    const start = await call<{
      uploadId: string;
      partSize: number;
      uploadParamsList: Array<{ partNo: number; signedUrl: string }>;
    }>(first.url, 'POST', '/api/multi_signed_url_upload', token, {
      functionName: 'start',
      fileKey,
      fileSize: apk.length,
    });
    const tags = [];
    for (const part of start.uploadParamsList) {
      // Straight to S3: the bytes never pass through either server.
      expect(part.signedUrl.startsWith(s3.endpoint)).toBe(true);
      const res = await fetch(part.signedUrl, {
        method: 'PUT',
        body: new Uint8Array(apk.subarray((part.partNo - 1) * start.partSize, part.partNo * start.partSize)),
      });
      tags.push({ partNo: part.partNo, etag: res.headers.get('etag') ?? '' });
    }
    // Finished and registered through the other process.
    await call(second.url, 'POST', '/api/multi_signed_url_upload', token, {
      functionName: 'finish',
      fileKey,
      uploadId: start.uploadId,
      tags,
    });
    const version = await call<{ id: number; appVersion: string; cdnUrl: string }>(
      second.url,
      'POST',
      '/api/v2/upload_app',
      token,
      { appId, s3Url: fileKey },
    );
    expect(version.appVersion).toBe('9.9.9');

    const listed = await fetch(`${first.url}/api/app_versions?appId=${appId}`, { headers: { token } });
    const list = (await listed.json()) as {
      data: Array<{ id: number; appVersion: string; cdnUrl: string; bundleId: string }>;
      total: number;
    };
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id: version.id, appVersion: '9.9.9', bundleId: 'com.example.shop' });
    const downloaded = Buffer.from(await (await fetch(list.data[0]?.cdnUrl ?? '')).arrayBuffer());
    expect(sha(downloaded)).toBe(sha(apk));
  });
});
