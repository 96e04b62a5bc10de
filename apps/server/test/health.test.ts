import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBlobStore } from '../src/storage/local-blob-store.ts';
import { createUrlSigner } from '../src/storage/url-signer.ts';
import { testDialects } from './helpers/dialects.ts';
import { startTestServer, TEST_SECRET, type TestServer } from './helpers/test-app.ts';

async function probe(server: TestServer, urlPath: string) {
  const res = await fetch(`${server.url}${urlPath}`);
  return { status: res.status, cache: res.headers.get('cache-control'), body: (await res.json()) as unknown };
}

describe.each(testDialects())('health endpoints for load balancers (%s)', (dialect) => {
  let server: TestServer;
  let broken: TestServer;
  // A store whose folder cannot be made: a file stands where it should be (a mount gone, a wrong path).
  const blocked = fs.mkdtempSync(path.join(os.tmpdir(), 'release-blocked-'));
  fs.writeFileSync(path.join(blocked, 'blobs'), 'not a folder');

  beforeAll(async () => {
    server = await startTestServer(dialect);
    broken = await startTestServer(dialect, {
      blobs: (clock) =>
        createLocalBlobStore({ root: path.join(blocked, 'blobs'), signer: createUrlSigner(TEST_SECRET), clock }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await broken?.close();
    fs.rmSync(blocked, { recursive: true, force: true });
  });

  it('/healthz answers without signing in or checking anything; /readyz checks the database and a write to the store', async () => {
    expect(await probe(server, '/healthz')).toEqual({
      status: 200,
      cache: 'no-store',
      body: { code: 200, msg: 'success', data: { status: 'ok' } },
    });
    expect(await probe(server, '/readyz')).toEqual({
      status: 200,
      cache: 'no-store',
      body: { code: 200, msg: 'success', data: { status: 'ready', database: 'ok', storage: 'ok' } },
    });
    // The probe went through the store's real write path.
    expect(await server.blobs.stat('health/ready-probe')).toEqual({ size: 2 });
  });

  it('/readyz answers 503 naming the store when it cannot write, with no path or error text; /healthz still 200', async () => {
    const ready = await probe(broken, '/readyz');
    expect(ready).toEqual({
      status: 503,
      cache: 'no-store',
      body: {
        code: 503,
        msg: '服务未就绪：存储不可用',
        data: { status: 'not ready', database: 'ok', storage: 'unavailable' },
      },
    });
    expect(JSON.stringify(ready.body)).not.toContain(blocked);
    expect((await probe(broken, '/healthz')).status).toBe(200);
  });
});
