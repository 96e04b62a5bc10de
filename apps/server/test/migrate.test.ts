import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListableBlobStore } from '../src/admin/backup.ts';
import { migrate } from '../src/admin/migrate.ts';
import { appliedMigrations, listTables } from '../src/admin/table-catalog.ts';
import { digestTable } from '../src/admin/table-rows.ts';
import { type DatabaseHandle, type DialectName, dropPostgresSchema, openDatabase } from '../src/db/database.ts';
import { createReadOnlySwitch, READ_ONLY_SETTING, ReadOnlyMessages } from '../src/modules/settings/read-only.ts';
import { createLocalBlobStore } from '../src/storage/local-blob-store.ts';
import { createUrlSigner } from '../src/storage/url-signer.ts';
import { TEST_POSTGRES_URL, testDialects } from './helpers/dialects.ts';
import { fillEveryTable } from './helpers/every-table.ts';
import { runScript } from './helpers/main-process.ts';
import { publishedApp, storedSha256 } from './helpers/published-app.ts';
import { testStore } from './helpers/s3-server.ts';
import { startTestServer, TEST_SECRET, type TestServer } from './helpers/test-app.ts';

type Store = 'local' | 's3';
interface End {
  dialect: DialectName;
  store: Store;
}
const available = testDialects();
const other = (d: DialectName): DialectName =>
  available.includes(d === 'sqlite' ? 'postgres' : 'sqlite') ? (d === 'sqlite' ? 'postgres' : 'sqlite') : d;
// Embedded → PostgreSQL and S3, and the reverse (each database is a source once).
const directions: Array<{ from: End; to: End }> = available.map((dialect) => ({
  from: { dialect, store: dialect === 'sqlite' ? 'local' : 's3' },
  to: { dialect: other(dialect), store: dialect === 'sqlite' ? 's3' : 'local' },
}));

describe.each(directions)('admin migrate from $from.dialect/$from.store to $to.dialect/$to.store', ({ from, to }) => {
  let server: TestServer;
  let appId: number;
  let source: DatabaseHandle;
  let target: DatabaseHandle;
  let targetBlobs: ListableBlobStore;
  let targetEnv: { to: string; schema: string };
  const closers: Array<() => Promise<void>> = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'release-migrate-'));
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const sourceBlobs = () => server.blobs as ListableBlobStore;

  beforeAll(async () => {
    const files = await testStore(from.store);
    closers.push(files.close);
    server = await startTestServer(from.dialect, { blobs: files.blobs });
    const app = await publishedApp(server);
    appId = app.appId;
    for (const version of ['1.0.0', '1.1.0']) await app.publish(version);
    // Files of every size class: empty, one byte, several S3 parts' worth.
    await server.blobs.put('attachments/empty.bin', Buffer.alloc(0), { contentType: 'application/octet-stream' });
    await server.blobs.put('resigned/1.ipa', Buffer.from([0]), { contentType: 'application/octet-stream' });
    await server.blobs.put('media/2026/11/large.mp4', randomBytes(11 * 1024 * 1024), { contentType: 'video/mp4' });
    source = await server.openAnotherConnection();
    await fillEveryTable(source);

    const schema = `mg_${randomBytes(4).toString('hex')}`;
    const dir = path.join(work, 'target');
    target = await openDatabase({
      url: to.dialect === 'postgres' ? TEST_POSTGRES_URL : undefined,
      schema,
      sqliteFile: path.join(dir, 'release.db'),
    });
    targetEnv = { to: to.dialect === 'postgres' ? TEST_POSTGRES_URL : dir, schema };
    if (to.dialect === 'postgres') closers.push(() => dropPostgresSchema(TEST_POSTGRES_URL, schema));
    if (to.store === 's3') {
      const s3 = await testStore('s3');
      closers.push(s3.close);
      targetBlobs = (s3.blobs as () => ListableBlobStore)();
    } else {
      targetBlobs = createLocalBlobStore({
        root: path.join(dir, 'blobs'),
        signer: createUrlSigner(TEST_SECRET),
        clock: server.clock,
      });
    }
  }, 180_000);
  afterAll(async () => {
    await source?.destroy();
    await target?.destroy();
    await server?.close();
    for (const close of closers.reverse()) await close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** The source as the CLI finds it: the server's own database, by DATA_DIR or DATABASE_URL + DATABASE_SCHEMA. */
  const sourceEnv = () => ({
    DATA_DIR: server.sqliteFile ? path.dirname(server.sqliteFile) : work,
    DATABASE_URL: from.dialect === 'postgres' ? TEST_POSTGRES_URL : '',
    DATABASE_SCHEMA: server.schema,
    STORAGE: 'local',
  });

  it('--dry-run lists every table and its rows, and writes nothing anywhere', { timeout: 120_000 }, async () => {
    const args = ['migrate', '--to', targetEnv.to, '--schema', targetEnv.schema, '--dry-run'];
    const run = await runScript('scripts/admin.mjs', args, sourceEnv());
    expect(run.output).toContain('dry run: nothing is written');
    for (const table of await listTables(source))
      expect(run.output).toMatch(new RegExp(`table ${table.name}: [1-9]\\d* rows`));
    expect(run.code).toBe(0);
    expect(await appliedMigrations(target)).toEqual([]);
    expect(await createReadOnlySwitch(source.db).since()).toBeNull();
  });

  it('copies every table and file, verified; killed half-way and run again, it finishes without duplicates; the source turns read-only', {
    timeout: 300_000,
  }, async () => {
    let batches = 0;
    let refused: { status: number; msg: string } | undefined;
    let listed = 0;
    const interrupted = migrate({
      source,
      sourceBlobs: sourceBlobs(),
      target,
      targetBlobs,
      log,
      batchRows: 2,
      onProgress: async (step) => {
        if (!('table' in step) || step.table !== 'app_versions') return;
        batches += 1;
        if (batches === 1) {
          const admin = await server.adminToken();
          const created = await server.request('POST', '/api/category', {
            token: admin,
            body: { categoryName: '迁移中' },
          });
          refused = { status: created.status, msg: created.body.msg };
          listed = (await server.request('GET', `/api/app_versions?appId=${appId}`, { token: admin })).status;
        }
        if (batches === 2) throw new Error('killed half-way');
      },
    });
    await expect(interrupted).rejects.toThrow('killed half-way');
    // While it ran, every server on the source refused changes and kept answering reads.
    expect(refused).toEqual({ status: 503, msg: ReadOnlyMessages.refused });
    expect(listed).toBe(200);

    const tables = await listTables(source);
    const versions = tables.find((t) => t.name === 'app_versions');
    if (!versions) throw new Error('no app_versions');
    const half = await digestTable(target.db, target, versions);
    const whole = await digestTable(source.db, source, versions);
    expect(half.rows).toBeGreaterThan(0);
    expect(half.rows).toBeLessThan(whole.rows);

    const report = await migrate({ source, sourceBlobs: sourceBlobs(), target, targetBlobs, log, batchRows: 2 });
    // Tables finished before the interrupt were found equal and left alone.
    expect(report.tables.find((t) => t.name === 'users')?.copied).toBe(false);
    expect(report.tables.find((t) => t.name === 'app_versions')?.copied).toBe(true);

    // Every table of the schema, each with rows, the same rows on both sides (but the source's read-only switch).
    expect(report.tables.map((t) => t.name).sort()).toEqual(tables.map((t) => t.name).sort());
    const settings = (db: DatabaseHandle['db']) =>
      db.selectFrom('settings').selectAll().where('key', '!=', READ_ONLY_SETTING).orderBy('key').execute();
    expect(await settings(target.db)).toEqual(await settings(source.db));
    for (const table of tables.filter((t) => t.name !== 'settings')) {
      const there = await digestTable(target.db, target, table);
      expect({ table: table.name, rows: there.rows > 0 }).toEqual({ table: table.name, rows: true });
      expect({ table: table.name, ...there }).toEqual({
        table: table.name,
        ...(await digestTable(source.db, source, table)),
      });
    }

    // Every file, byte for byte.
    const sourceKeys: string[] = [];
    for await (const object of sourceBlobs().listObjects()) sourceKeys.push(object.key);
    const targetKeys: string[] = [];
    for await (const object of targetBlobs.listObjects()) targetKeys.push(object.key);
    expect(targetKeys.sort()).toEqual(sourceKeys.sort());
    expect(sourceKeys).toContain('media/2026/11/large.mp4');
    for (const key of sourceKeys)
      expect(await storedSha256(targetBlobs, key)).toBe(await storedSha256(server.blobs, key));
    expect(report.files.count).toBe(sourceKeys.length);

    // New rows on the target take new ids; the target is writable, the source stays read-only until told.
    const next = await target.db
      .insertInto('categories')
      .values({ category_name: '迁移后', create_time: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(next.id)).toBeGreaterThan(1_000_000);
    expect(await createReadOnlySwitch(target.db).since()).toBeNull();
    expect(await createReadOnlySwitch(source.db).since()).not.toBeNull();

    const off = await runScript('scripts/admin.mjs', ['read-only', 'off'], sourceEnv());
    expect(off.output).toContain('read-only mode off');
    const admin = await server.adminToken();
    const created = await server.request('POST', '/api/category', { token: admin, body: { categoryName: '迁移后' } });
    expect(created.status).toBe(200);
  });
});
