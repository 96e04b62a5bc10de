import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../src/admin/backup-archive.ts';
import { backup, type ListableBlobStore } from '../src/admin/backup.ts';
import { restore } from '../src/admin/restore.ts';
import { appliedMigrations, listTables } from '../src/admin/table-catalog.ts';
import { digestTable } from '../src/admin/table-rows.ts';
import { dropPostgresSchema, type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import type { AuthUser } from '../src/modules/auth/session.service.ts';
import { createLocalBlobStore } from '../src/storage/local-blob-store.ts';
import { createUrlSigner } from '../src/storage/url-signer.ts';
import { testDialects, TEST_POSTGRES_URL } from './helpers/dialects.ts';
import { runScript } from './helpers/main-process.ts';
import { testStore } from './helpers/s3-server.ts';
import { filesOfVersion, publishedApp, storedSha256 } from './helpers/published-app.ts';
import { startTestServer, TEST_SECRET, type TestServer } from './helpers/test-app.ts';

// PostgreSQL installations keep their files in S3 (s3rver here), SQLite ones on local disk: both stores are listed.
const installations = testDialects().map(
  (dialect) => ({ dialect, store: dialect === 'postgres' ? 's3' : 'local' }) as const,
);

describe.each(installations)('admin backup and restore on $dialect with $store files', ({ dialect, store }) => {
  let server: TestServer;
  let closeStore = async () => {};
  let app: Awaited<ReturnType<typeof publishedApp>>;
  let source: DatabaseHandle;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'release-backup-'));
  const backupDir = path.join(work, 'backup');
  const schemas: string[] = [];
  const handles: DatabaseHandle[] = [];
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);

  /** A new, empty installation: its own data dir (SQLite file and blobs) or PostgreSQL schema. */
  const newInstallation = async (name: string) => {
    const dataDir = path.join(work, name);
    const schema = `rs_${randomBytes(4).toString('hex')}`;
    schemas.push(schema);
    const handle = await openDatabase({
      url: dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
      schema,
      sqliteFile: path.join(dataDir, 'release.db'),
    });
    handles.push(handle);
    const blobs = createLocalBlobStore({
      root: path.join(dataDir, 'blobs'),
      signer: createUrlSigner(TEST_SECRET),
      clock: server.clock,
    });
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: dialect === 'postgres' ? TEST_POSTGRES_URL : '',
      DATABASE_SCHEMA: schema,
      STORAGE: 'local',
    };
    return { handle, blobs, env, dataDir };
  };

  beforeAll(async () => {
    const files = await testStore(store);
    closeStore = files.close;
    server = await startTestServer(dialect, { blobs: files.blobs });
    app = await publishedApp(server);
    for (const version of ['1.0.0', '1.1.0', '1.2.0']) await app.publish(version);
    source = await server.openAnotherConnection();
  }, 180_000);
  afterAll(async () => {
    for (const handle of [source, ...handles]) await handle?.destroy();
    await server?.close();
    await closeStore();
    if (dialect === 'postgres') for (const schema of schemas) await dropPostgresSchema(TEST_POSTGRES_URL, schema);
    fs.rmSync(work, { recursive: true, force: true });
  });

  const versionRows = (db: DatabaseHandle['db']) => db.selectFrom('app_versions').selectAll().orderBy('id').execute();
  const itemOf = (db: DatabaseHandle['db'], versionId: number) =>
    db.selectFrom('commit_logs').selectAll().where('app_version_id', '=', versionId).execute();

  it('backs up while uploads run; restored into a fresh data dir, every version, item and file of that moment is there', {
    timeout: 180_000,
  }, async () => {
    const before = await versionRows(server.db);
    const first = before[0] as (typeof before)[number];
    const firstFiles = await Promise.all(filesOfVersion(first).map((key) => storedSha256(server.blobs, key)));
    const firstItem = await itemOf(server.db, Number(first.id));
    const admin = (await server.built.core.shared.sessions.resolve(app.admin)) as AuthUser;

    // Between the two file passes: a version published after the first pass (its files only the second pass finds),
    // and the first version removed after the snapshot (its files gone before the second pass).
    let published = 0;
    let passes = 0;
    const blobs: ListableBlobStore = {
      ...server.blobs,
      async *listObjects() {
        passes += 1;
        if (passes === 2) {
          // The removal marks the row and queues its files' deletion; the job runs here, before the second pass.
          await server.built.modules.versionRemoval.removeAsEditor(admin, {
            id: Number(first.id),
            appId: Number(first.app_id),
          });
          await server.built.core.jobs.runDue();
        }
        yield* server.blobs.listObjects();
        if (passes === 1) published = await app.publish('1.3.0');
      },
    };
    // Uploads in flight the whole time, from another client.
    const uploads = Promise.all(['2.0.0', '2.1.0', '2.2.0'].map((v) => app.publish(v)));
    const manifest = await backup({ source, blobs, log }, backupDir);
    await uploads;
    expect(passes).toBe(2);
    expect(await storedSha256(server.blobs, first.file_key)).toBeNull();

    const target = await newInstallation('restored');
    await restore({ target: target.handle, blobs: target.blobs, log }, backupDir);

    const restored = await versionRows(target.handle.db);
    const now = new Map((await versionRows(server.db)).map((v) => [Number(v.id), v]));
    const restoredIds = restored.map((v) => Number(v.id));
    expect(restoredIds).toEqual(expect.arrayContaining([...before.map((v) => Number(v.id)), published]));
    expect(manifest.tables.find((t) => t.name === 'app_versions')?.rows).toBe(restored.length);
    // The removed version is back as it was, with its item and its files.
    expect(restored[0]).toEqual(first);
    expect(await itemOf(target.handle.db, Number(first.id))).toEqual(firstItem);
    expect(await Promise.all(filesOfVersion(first).map((key) => storedSha256(target.blobs, key)))).toEqual(firstFiles);
    // Every other version: the same row, the same item, the same bytes of every file it names. A version registered
    // while the snapshot was taken may lack its item: registration records the item after the version's own
    // transaction, and the snapshot may fall between the two (as a crash there would leave it).
    const settled = new Set([...before.map((v) => Number(v.id)), published]);
    for (const version of restored.slice(1)) {
      expect(version).toEqual(now.get(Number(version.id)));
      const item = await itemOf(target.handle.db, Number(version.id));
      if (settled.has(Number(version.id)) || item.length)
        expect(item).toEqual(await itemOf(server.db, Number(version.id)));
      for (const key of filesOfVersion(version))
        expect(await storedSha256(target.blobs, key)).toBe(await storedSha256(server.blobs, key));
    }
    // Tables no upload touches are identical, row for row.
    const tables = await listTables(target.handle);
    for (const name of ['users', 'roles', 'app_users', 'workflows', 'categories']) {
      const table = tables.find((t) => t.name === name);
      if (!table) throw new Error(`no table ${name}`);
      expect(await digestTable(target.handle.db, target.handle, table)).toEqual(
        await digestTable(source.db, source, table),
      );
    }
    // Ids continue after the restored ones.
    const next = await target.handle.db
      .insertInto('categories')
      .values({ category_name: '新分类', create_time: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(next.id)).toBeGreaterThan(0);
    expect(lines.join('\n')).toContain('the server key is not in the backup');
  });

  it('npm run admin -- restore and backup: a backup of the restored installation has the same rows and files', {
    timeout: 180_000,
  }, async () => {
    const target = await newInstallation('cli');
    const restored = await runScript('scripts/admin.mjs', ['restore', backupDir], target.env);
    expect(restored.output).toContain('rows restored and checked');
    expect(restored.output).toContain('Put the server key back');
    expect(restored.code).toBe(0);

    const again = path.join(work, 'backup-again');
    const backedUp = await runScript('scripts/admin.mjs', ['backup', again], target.env);
    expect(backedUp.code).toBe(0);
    const shape = (m: Awaited<ReturnType<typeof readManifest>>) => ({
      schema: m.schemaVersion,
      tables: m.tables.map((t) => [t.name, t.rows, t.checksum]),
      blobs: m.blobs,
    });
    expect(shape(await readManifest(again))).toEqual(shape(await readManifest(backupDir)));

    // Into an installation that is not empty: refused, nothing changed.
    const refused = await runScript('scripts/admin.mjs', ['restore', backupDir], target.env);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/the target installation is not empty \(\w+ has \d+ rows\)/);
  });

  it('refuses a damaged file or a newer schema before touching the installation', { timeout: 120_000 }, async () => {
    const copy = (name: string) => {
      const dir = path.join(work, name);
      fs.cpSync(backupDir, dir, { recursive: true });
      return dir;
    };
    const manifest = await readManifest(backupDir);
    const damaged = copy('damaged');
    const blob = manifest.blobs[0];
    if (!blob) throw new Error('no file in the backup');
    const file = path.join(damaged, 'blobs', blob.key);
    const bytes = fs.readFileSync(file);
    bytes[0] = (bytes[0 as number] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    const target = await newInstallation('refused');
    await expect(restore({ target: target.handle, blobs: target.blobs, log }, damaged)).rejects.toThrow(
      `blobs/${blob.key} does not match its checksum in manifest.json`,
    );

    const table = copy('damaged-table');
    fs.appendFileSync(path.join(table, 'tables', 'users.ndjson.gz'), 'x');
    await expect(restore({ target: target.handle, blobs: target.blobs, log }, table)).rejects.toThrow(
      'tables/users.ndjson.gz does not match its checksum',
    );

    const newer = copy('newer');
    const future = '2099-01-01-999-from-the-future';
    fs.writeFileSync(
      path.join(newer, 'manifest.json'),
      JSON.stringify({ ...manifest, migrations: [...manifest.migrations, future], schemaVersion: future }),
    );
    await expect(restore({ target: target.handle, blobs: target.blobs, log }, newer)).rejects.toThrow(
      `the backup comes from a newer version (schema ${future}`,
    );
    await expect(restore({ target: target.handle, blobs: target.blobs, log }, work)).rejects.toThrow(
      'it is not a backup, or the backup did not finish',
    );
    // Nothing reached the installation.
    expect(await appliedMigrations(target.handle)).toEqual([]);
    expect(fs.existsSync(path.join(target.dataDir, 'blobs', 'objects'))).toBe(false);
  });
});
