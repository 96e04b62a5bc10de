import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, startAppleFake, type AppleFake } from '@release/fakes';
import { rotateKey } from '../src/admin/rotate-key.ts';
import { dropPostgresSchema, openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { sampleApk } from '@release/inspect/testing/sample-packages.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { keyFilePath, readKeyFile, writeKeyFile } from '../src/modules/settings/key-file.ts';
import {
  createSealedValuesRepository,
  type SealedValuesRepository,
} from '../src/modules/settings/sealed-values.repository.ts';
import { testDialects, TEST_POSTGRES_URL } from './helpers/dialects.ts';
import { runScript, startMainProcess, type MainProcess } from './helpers/main-process.ts';
import {
  expectSealedWith,
  expectSecretsReadable,
  sealedValues,
  storeEverySecret,
  type StoredSecrets,
} from './helpers/secrets-world.ts';
import { startTestServer, TEST_CLOCK_START } from './helpers/test-app.ts';
import { apiOf } from './helpers/compiled-server.ts';
import { transferFile } from './helpers/upload-client.ts';

const ADMIN = { username: 'admin', password: 'rotate-admin-pass' };
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(testDialects())('npm run admin -- rotate-key on %s', (dialect) => {
  const schema = `rot_${randomBytes(4).toString('hex')}`;
  let dataDir: string;
  let env: Record<string, string>;
  let apple: AppleFake;
  let handle: DatabaseHandle;
  let server: MainProcess | undefined;
  let secrets: StoredSecrets[] = [];

  const start = async () => {
    server = await startMainProcess(env, { compiled: true });
    const api = apiOf(server.url);
    const login = await api.request<{ token: string }>('POST', '/api/user/login', {
      body: { username: ADMIN.username, password: sha(ADMIN.password) },
    });
    return { api, token: login.body.data.token };
  };
  const stop = async () => {
    await server?.stop();
    server = undefined;
  };
  const fileKeys = () => readKeyFile(keyFilePath(dataDir))?.keys ?? [];

  beforeAll(async () => {
    apple = await startAppleFake({ teamId: 'ABCDE12345' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-rotate-'));
    env = {
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      APPLE_API_BASE_URL: apple.url,
      SECRET_KEY: '',
      SECRET_KEY_PREVIOUS: '',
    };
    if (dialect === 'postgres') {
      env = { ...env, DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: schema };
      // With DATABASE_URL the key is never generated: the operator provides it (here as the key file).
      writeKeyFile(keyFilePath(dataDir), [randomBytes(48).toString('base64url')], { exclusive: true });
    }
  });
  afterAll(async () => {
    await stop();
    await handle?.destroy();
    await apple?.close();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-encrypts every stored secret with a new key: after a restart everything decrypts, and links signed before stop working', async () => {
    const first = await start();
    const oldKey = fileKeys()[0] ?? '';
    expect(oldKey.length).toBeGreaterThanOrEqual(32);
    secrets = [
      await storeEverySecret(first.api, apple, first.token, 'r1', Date.now()),
      await storeEverySecret(first.api, apple, first.token, 'r2', Date.now()),
    ];
    const [one] = secrets as [StoredSecrets];
    // Signed things handed out before the rotation: a package download link and an install page pass.
    const fileKey = await transferFile(first.api, first.token, 'demo.apk', sampleApk({ versionName: '1.0.0' }));
    const version = (
      await first.api.request<{ cdnUrl: string }>('POST', '/api/v2/upload_app', {
        token: first.token,
        body: { appId: one.appId, s3Url: fileKey },
      })
    ).body.data;
    expect((await fetch(version.cdnUrl)).status).toBe(200);
    const appPath = 'secr1';
    const page = await first.api.request<{ token: string }>(
      'GET',
      `/api/app_version?url=${appPath}&password=${one.installPassword}`,
    );
    expect(page.body.code).toBe(200);
    const pass = page.body.data.token;
    expect(
      (await first.api.request('GET', `/api/app_version?url=${appPath}`, { headers: { 'app-version-token': pass } }))
        .body.code,
    ).toBe(200);
    await stop();

    const rotated = await runScript('scripts/admin.mjs', ['rotate-key'], env);
    expect(rotated.output).toContain('12 secret(s) encrypted with the new key');
    expect(rotated.code).toBe(0);
    const newKeys = fileKeys();
    expect(newKeys).toHaveLength(1);
    expect(newKeys[0]).not.toBe(oldKey);

    const second = await start();
    handle = await openDatabase({ url: env.DATABASE_URL, schema, sqliteFile: path.join(dataDir, 'release.db') });
    const box = createSecretBox(newKeys[0] ?? '');
    for (const s of secrets) await expectSecretsReadable(second.api, handle.db, box, second.token, s);
    // The .p8 is used by the server itself: a sync signs its calls to Apple with it.
    expect(
      (
        await second.api.request('POST', '/api/apple_account/sync', {
          token: second.token,
          body: { id: one.appleAccountId },
        })
      ).body.code,
    ).toBe(200);
    // Nothing is left that the old key alone opens.
    for (const s of secrets) {
      const row = await handle.db
        .selectFrom('apps')
        .select('password')
        .where('id', '=', s.appId)
        .executeTakeFirstOrThrow();
      expect(() => createSecretBox(oldKey).open(row.password)).toThrow();
    }
    // Links signed with the old key stop working; fresh ones work.
    // (The restarted server listens on another port: the same link, on its address.)
    const oldLink = new URL(version.cdnUrl);
    expect((await fetch(`${second.api.url}${oldLink.pathname}${oldLink.search}`)).status).toBe(403);
    const stale = await second.api.request('GET', `/api/app_version?url=${appPath}`, {
      headers: { 'app-version-token': pass },
    });
    expect([stale.status, stale.body.msg]).toEqual([400, '安装密码已更改，请输入新的安装密码']);
    const fresh = await second.api.request<Array<{ cdnUrl: string }>>('GET', `/api/app_versions?appId=${one.appId}`, {
      token: second.token,
    });
    expect((await fetch(fresh.body.data[0]?.cdnUrl ?? '')).status).toBe(200);
    await stop();
  }, 180_000);

  it('a rotation stopped half-way loses nothing: the server still starts and reads every secret, and running the command again finishes it', async () => {
    const before = fileKeys()[0] ?? '';
    let replaced = 0;
    const real = createSealedValuesRepository(handle.db);
    // The "crash": the process dies after five values were written under the new key.
    const crashing: SealedValuesRepository = {
      ...real,
      async replace(...args) {
        if (replaced === 5) throw new Error('power cut');
        replaced += 1;
        return real.replace(...args);
      },
    };
    const config = { DATA_DIR: dataDir, DATABASE_URL: env.DATABASE_URL };
    await expect(
      rotateKey({ db: handle.db, config, clock: { now: Date.now }, log: () => undefined, sealed: crashing }),
    ).rejects.toThrow('power cut');
    const [next, previous] = fileKeys();
    expect(previous).toBe(before);
    // Five secrets are under the new key, the rest still under the old one.
    const values = await sealedValues(handle.db);
    expect(values).toHaveLength(12);
    expect(values.filter((v) => createSecretBox(next ?? '').opensWithCurrent(v))).toHaveLength(5);
    expect(values.filter((v) => createSecretBox(before).opensWithCurrent(v))).toHaveLength(7);

    const resumedServer = await start();
    const both = createSecretBox(next ?? '', [before]);
    for (const s of secrets) await expectSecretsReadable(resumedServer.api, handle.db, both, resumedServer.token, s);
    await stop();

    const resumed = await runScript('scripts/admin.mjs', ['rotate-key'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.output).toContain('resuming the rotation');
    expect(fileKeys()).toEqual([next]);
    const last = await start();
    for (const s of secrets)
      await expectSecretsReadable(last.api, handle.db, createSecretBox(next ?? ''), last.token, s);
    await stop();
  }, 180_000);
});

describe.each(testDialects())('rotate-key with SECRET_KEY on %s', (dialect) => {
  it('asks for the old key in SECRET_KEY_PREVIOUS, then moves every secret onto SECRET_KEY', async () => {
    const apple = await startAppleFake({
      teamId: 'ABCDE12345',
      clock: new FakeClock({ frozen: true, start: TEST_CLOCK_START }),
    });
    const oldKey = randomBytes(48).toString('base64url');
    const newKey = randomBytes(48).toString('base64url');
    const server = await startTestServer(dialect, {
      appleApiBaseUrl: apple.url,
      serverKeys: async () => ({ current: oldKey, previous: [] }),
    });
    try {
      const admin = await server.adminToken();
      const stored = await storeEverySecret(server, apple, admin, 'e1');
      const config = {
        DATA_DIR: os.tmpdir(),
        SECRET_KEY: newKey,
        DATABASE_URL: dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
      };
      const refused = await rotateKey({ db: server.db, config, clock: server.clock, log: () => undefined }).catch(
        (e: unknown) => e,
      );
      // The new key alone opens nothing stored: the start-up check refuses it before anything changes.
      expect((refused as Error).message).toContain('does not open the secrets stored in the database');
      const withPrevious = { ...config, SECRET_KEY_PREVIOUS: oldKey };
      const lines: string[] = [];
      const report = await rotateKey({
        db: server.db,
        config: withPrevious,
        clock: server.clock,
        log: (l) => lines.push(l),
      });
      expect(report).toMatchObject({ resealed: 6, unreadable: [] });
      expect(lines.at(-1)).toContain('remove SECRET_KEY_PREVIOUS');
      await expectSealedWith(server.db, createSecretBox(newKey), stored);
      // Without SECRET_KEY_PREVIOUS (the new key already opens everything) it says how to rotate from the environment.
      const again = await rotateKey({ db: server.db, config, clock: server.clock, log: () => undefined }).catch(
        (e: unknown) => e,
      );
      expect((again as Error).message).toContain('SECRET_KEY_PREVIOUS to the old one');
    } finally {
      await server.close();
      await apple.close();
    }
  });
});
