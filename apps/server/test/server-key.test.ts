import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, startAppleFake, type AppleFake } from '@release/fakes';
import { dropPostgresSchema, migrateToLatest, openDatabase, type DialectName } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { keyFilePath, readKeyFile, writeKeyFile } from '../src/modules/settings/key-file.ts';
import { createSealedValuesRepository } from '../src/modules/settings/sealed-values.repository.ts';
import {
  KeySetupError,
  LEGACY_KEY_SETTING,
  resolveServerKeys,
  type KeySettings,
} from '../src/modules/settings/server-key.ts';
import { createSettingsRepository } from '../src/modules/settings/settings.repository.ts';
import { testDialects, TEST_POSTGRES_URL } from './helpers/dialects.ts';
import { expectNothingUsableInDatabase, expectSecretsReadable, storeEverySecret } from './helpers/secrets-world.ts';
import { startTestServer, TEST_CLOCK_START, type TestServer } from './helpers/test-app.ts';

const clock = { now: () => TEST_CLOCK_START };
const oldStyleKey = () => randomBytes(32).toString('base64url') + randomBytes(32).toString('base64url');

/** A migrated database of its own (SQLite file or PostgreSQL schema) and a DATA_DIR. */
async function freshDatabase(dialect: DialectName) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-key-'));
  const schema = `k_${randomBytes(5).toString('hex')}`;
  const handle = await openDatabase({
    url: dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
    schema,
    sqliteFile: path.join(dataDir, 'release.db'),
  });
  await migrateToLatest(handle);
  const lines: string[] = [];
  const config = (extra: Partial<KeySettings> = {}): KeySettings => ({
    DATA_DIR: dataDir,
    ...(dialect === 'postgres' ? { DATABASE_URL: TEST_POSTGRES_URL } : {}),
    ...extra,
  });
  const resolve = (extra: Partial<KeySettings> = {}) =>
    resolveServerKeys({
      config: config(extra),
      settings: createSettingsRepository(handle.db),
      sealed: createSealedValuesRepository(handle.db),
      clock,
      log: (line) => lines.push(line),
    });
  /** An app whose install password is sealed with `key`, as a server with that key stored it. */
  const sealedApp = async (key: string, password: string) => {
    const tag = randomBytes(3).toString('hex');
    const row = {
      app_name: tag,
      app_type: 'native',
      path: `p${tag}`,
      public_path: `q${tag}`,
      password: createSecretBox(key).seal(password),
      description: '',
      create_time: 1,
      update_time: 1,
    };
    return Number((await handle.db.insertInto('apps').values(row).returning('id').executeTakeFirstOrThrow()).id);
  };
  return {
    handle,
    dataDir,
    lines,
    resolve,
    sealedApp,
    setting: (key: string) => createSettingsRepository(handle.db).get(key),
    async close() {
      await handle.destroy();
      if (dialect === 'postgres') await dropPostgresSchema(TEST_POSTGRES_URL, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(testDialects())('the server key on %s', (dialect) => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  afterEach(async () => {
    await db?.close();
  });

  it('an installation that kept its generated key in the database: the key moves to DATA_DIR/secret.key (0600), leaves the database, and still opens what it sealed', async () => {
    db = await freshDatabase(dialect);
    const legacy = oldStyleKey();
    await createSettingsRepository(db.handle.db).set(LEGACY_KEY_SETTING, legacy, 1);
    const appId = await db.sealedApp(legacy, '246810');

    const keys = await db.resolve();
    expect(keys).toEqual({ current: legacy, previous: [], source: 'file' });
    const file = keyFilePath(db.dataDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readKeyFile(file)?.keys).toEqual([legacy]);
    expect(await db.setting(LEGACY_KEY_SETTING)).toBeUndefined();
    const row = await db.handle.db
      .selectFrom('apps')
      .select('password')
      .where('id', '=', appId)
      .executeTakeFirstOrThrow();
    expect(createSecretBox(keys.current).open(row.password)).toBe('246810');
    if (dialect === 'postgres')
      expect(db.lines.join('\n')).toContain('every other server process sharing this database needs the same key');

    // The next start reads the file and finds nothing left to move.
    db.lines.length = 0;
    expect(await db.resolve()).toEqual(keys);
    expect(db.lines).toEqual([]);
  });

  it('a first start on SQLite generates the key file; with DATABASE_URL and no key the server refuses to start and says what to set', async () => {
    db = await freshDatabase(dialect);
    if (dialect === 'sqlite') {
      const keys = await db.resolve();
      expect(keys.source).toBe('file');
      expect(keys.current.length).toBeGreaterThanOrEqual(64);
      expect(fs.statSync(keyFilePath(db.dataDir)).mode & 0o777).toBe(0o600);
      expect(await db.resolve()).toEqual(keys);
    } else {
      const refused = await db.resolve().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(KeySetupError);
      expect((refused as Error).message).toContain('set SECRET_KEY to the same');
      expect(fs.existsSync(keyFilePath(db.dataDir))).toBe(false);
      // A key file put there by the operator is used.
      const key = randomBytes(40).toString('base64url');
      writeKeyFile(keyFilePath(db.dataDir), [key], { exclusive: true });
      expect(await db.resolve()).toEqual({ current: key, previous: [], source: 'file' });
    }
  });

  it('stops the start when the key does not open the stored secrets, or when secrets are stored and the key file is gone', async () => {
    db = await freshDatabase(dialect);
    const key = randomBytes(40).toString('base64url');
    await db.sealedApp(key, '135790');
    const wrong = await db.resolve({ SECRET_KEY: randomBytes(40).toString('base64url') }).catch((e: unknown) => e);
    expect((wrong as Error).message).toContain('does not open the secrets stored in the database');
    // The right key, with a previous one during a rotation, starts.
    const previous = randomBytes(40).toString('base64url');
    expect(await db.resolve({ SECRET_KEY: key, SECRET_KEY_PREVIOUS: previous })).toEqual({
      current: key,
      previous: [previous],
      source: 'env',
    });
    if (dialect === 'sqlite') {
      const missing = await db.resolve().catch((e: unknown) => e);
      expect((missing as Error).message).toContain('secret.key is missing');
      expect(fs.existsSync(keyFilePath(db.dataDir))).toBe(false);
    }
  });

  it('with SECRET_KEY set, an older key left in the database is removed from it; if it still opens secrets SECRET_KEY does not, it is kept in a retired key file', async () => {
    db = await freshDatabase(dialect);
    const envKey = randomBytes(40).toString('base64url');
    const legacy = oldStyleKey();
    await db.sealedApp(envKey, '111111');
    const stranded = await db.sealedApp(legacy, '222222');
    await createSettingsRepository(db.handle.db).set(LEGACY_KEY_SETTING, legacy, 1);
    expect(await db.resolve({ SECRET_KEY: envKey })).toEqual({ current: envKey, previous: [], source: 'env' });
    expect(await db.setting(LEGACY_KEY_SETTING)).toBeUndefined();
    const retired = fs.readdirSync(db.dataDir).filter((f) => f.startsWith('secret.key.retired-'));
    expect(retired).toHaveLength(1);
    expect(readKeyFile(path.join(db.dataDir, retired[0] ?? ''))?.keys).toEqual([legacy]);
    expect(db.lines.join('\n')).toContain('opens 1 stored secret(s) the current key does not');
    const row = await db.handle.db
      .selectFrom('apps')
      .select('password')
      .where('id', '=', stranded)
      .executeTakeFirstOrThrow();
    expect(createSecretBox(envKey, [legacy]).open(row.password)).toBe('222222');
  });
});

describe.each(testDialects())('the database alone on %s', (dialect) => {
  let server: TestServer;
  let apple: AppleFake;
  let dataDir: string;
  let legacy: string;
  let legacyAppId: number;

  beforeAll(async () => {
    apple = await startAppleFake({
      clock: new FakeClock({ frozen: true, start: TEST_CLOCK_START }),
      teamId: 'ABCDE12345',
    });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-alone-'));
    legacy = oldStyleKey();
    // An installation from before the key file: its generated key and an install password sealed with it are in the database.
    server = await startTestServer(dialect, {
      appleApiBaseUrl: apple.url,
      serverKeys: async (handle) => {
        await createSettingsRepository(handle).set(LEGACY_KEY_SETTING, legacy, 1);
        const row = {
          app_name: '旧应用',
          app_type: 'native',
          path: 'old-app',
          public_path: 'old-pub',
          password: createSecretBox(legacy).seal('old-install-pass-9'),
          description: '',
          create_time: 1,
          update_time: 1,
        };
        legacyAppId = Number(
          (await handle.insertInto('apps').values(row).returning('id').executeTakeFirstOrThrow()).id,
        );
        return resolveServerKeys({
          config: { DATA_DIR: dataDir, ...(dialect === 'postgres' ? { DATABASE_URL: TEST_POSTGRES_URL } : {}) },
          settings: createSettingsRepository(handle),
          sealed: createSealedValuesRepository(handle),
          clock,
          log: () => undefined,
        });
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await apple?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds no usable secret: no key, no plain text, and no sealed value opens with anything stored in it', async () => {
    const admin = await server.adminToken();
    const stored = [
      await storeEverySecret(server, apple, admin, 'a1'),
      await storeEverySecret(server, apple, admin, 'b2'),
    ];
    for (const secrets of stored) await expectSecretsReadable(server, server.db, server.built.core.box, admin, secrets);
    const old = await server.request<{ password: string }>('GET', `/api/app?appId=${legacyAppId}`, { token: admin });
    expect(old.body.data.password).toBe('old-install-pass-9');

    await expectNothingUsableInDatabase(server, stored, [legacy, 'old-install-pass-9']);
    // The key is in DATA_DIR, apart from the database.
    expect(readKeyFile(keyFilePath(dataDir))?.keys).toEqual([legacy]);
  });
});
