import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { AppVersionRow, CertificateRow, ZsignJob } from '@release/contract';
import type { DialectName } from '../../src/db/database.ts';
import { sampleSignedIpa, sampleSigningSet } from '../../src/signing/testing/ipa-builder.ts';
import { createLocalBlobStore } from '../../src/storage/local-blob-store.ts';
import { createUrlSigner } from '../../src/storage/url-signer.ts';
import { grantApp, insertApp } from './factories.ts';
import { publishPackage, uploadSigningSet } from './resign-world.ts';
import { startTestServer, TEST_CLOCK_START, TEST_SECRET, type TestServer } from './test-app.ts';

export const zsignSet = sampleSigningSet('NEWTEAM001', { now: TEST_CLOCK_START });

/** What the /api/zsign tests share: filled in by the describe's beforeAll. */
export interface ZsignWorld {
  server: TestServer;
  admin: string;
  editor: { userId: number; token: string };
  /** 演示, where the editor may edit, with `ipaVersion` published; 别的应用, where the editor has no permit. */
  appId: number;
  otherAppId: number;
  certId: number;
  cert: CertificateRow;
  ipaVersion: AppVersionRow;
  /** The store refuses the next write of a re-signed ipa: a run that dies before the version exists. */
  failNextResignedPut: boolean;
}

/**
 * A server on `dialect` (started in beforeAll, closed in afterAll) with an editor, two apps, an ipa version and
 * the NEWTEAM001 certificate with its main and wildcard profiles; and the calls the tests make.
 */
export function zsignWorld(dialect: DialectName) {
  const world = { failNextResignedPut: false } as ZsignWorld;
  const blobRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'zsign-blobs-'));
  const refusing = (key: string) => {
    if (!world.failNextResignedPut || !key.startsWith('packages/resigned/')) return false;
    world.failNextResignedPut = false;
    return true;
  };

  beforeAll(async () => {
    const server = await startTestServer(dialect, {
      blobs: (clock) => {
        const store = createLocalBlobStore({ root: blobRoot, signer: createUrlSigner(TEST_SECRET), clock });
        const put = store.put.bind(store);
        store.put = async (key, body, options) => {
          if (refusing(key)) {
            if (typeof (body as NodeJS.ReadableStream).resume === 'function') (body as NodeJS.ReadableStream).resume();
            throw new Error('storage went away');
          }
          return put(key, body, options);
        };
        // The re-signed ipa moves in from the scratch folder: refused the same way.
        const adopt = store.adopt.bind(store);
        store.adopt = async (key, file) => {
          if (refusing(key)) throw new Error('storage went away');
          return adopt(key, file);
        };
        return store;
      },
    });
    world.server = server;
    world.admin = await server.adminToken();
    world.editor = await server.createUser({ username: 'editor', roleLevel: 30 });
    world.appId = await insertApp(server.db, { app_name: '演示' });
    world.otherAppId = await insertApp(server.db, { app_name: '别的应用' });
    await grantApp(server.db, world.appId, world.editor.userId, 'edit');
    world.ipaVersion = await publish(world.appId, 'Demo.ipa', sampleSignedIpa());
    world.cert = await uploadSigningSet(server, world.admin, zsignSet);
    world.certId = world.cert.id;
  });
  afterAll(async () => {
    await world.server?.close();
    fs.rmSync(blobRoot, { recursive: true, force: true });
  });

  /** Published by the editor (who may not publish in 别的应用: that throws). */
  const publish = (app: number, fileName: string, bytes: Buffer) =>
    publishPackage(world.server, world.editor.token, app, fileName, bytes);
  const zsign = (body: unknown, token = world.editor.token) =>
    world.server.request<ZsignJob>('POST', '/api/zsign', { token, body });
  const versionsOf = async (app: number) =>
    (
      await world.server.request<AppVersionRow[]>('GET', `/api/app_versions?appId=${app}&pageNo=1&pageSize=50`, {
        token: world.admin,
      })
    ).body.data;
  return { world, publish, zsign, versionsOf };
}
