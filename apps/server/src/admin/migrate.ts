import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type DatabaseHandle, migrateUpTo, migrationNames } from '../db/database.ts';
import { createReadOnlySwitch } from '../modules/settings/read-only.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { hashingStream } from './backup-archive.ts';
import type { ListableBlobStore } from './backup.ts';
import { inReadSnapshot } from './read-snapshot.ts';
import { appliedMigrations, listTables, type TableInfo } from './table-catalog.ts';
import {
  digestTable,
  insertBatchSize,
  insertRows,
  READ_BATCH,
  readRows,
  resetSequences,
  TableDigest,
} from './table-rows.ts';

export interface MigrateDeps {
  /** The installation copied from (read only: the command only sets its read-only mode). */
  source: DatabaseHandle;
  sourceBlobs: ListableBlobStore;
  /** The database copied to; none: the database stays where it is. */
  target?: DatabaseHandle;
  /** The file store copied to; none: the files stay where they are. */
  targetBlobs?: BlobStore;
  dryRun?: boolean;
  log: (line: string) => void;
  now?: () => number;
  /** Rows read (and written) at a time. */
  batchRows?: number;
  /** Called after each batch of rows and each file is written (tests interrupt the copy here, as a kill would). */
  onProgress?: (step: { table: string; rows: number } | { file: string }) => Promise<void> | void;
}

export interface MigrateReport {
  tables: Array<{ name: string; rows: number; checksum: string; copied: boolean }>;
  files: { count: number; bytes: number; copied: number };
}

/**
 * `admin migrate`: copies an installation's database (to PostgreSQL or SQLite) and/or its files (to S3 or local
 * disk), verified — each table's row count and checksum, each file's size and SHA-256, read back from the target.
 * Run it again after an interrupt: what is already there and equal is skipped, the rest is written over (rows by
 * primary key), so it finishes without duplicates. The source is put in read-only mode first and left so (the
 * servers must move to the target); a dry run only reports what would be copied.
 */
export async function migrate(deps: MigrateDeps): Promise<MigrateReport> {
  const { source, log } = deps;
  const known = new Set(migrationNames());
  const sourceMigrations = await appliedMigrations(source);
  if (!sourceMigrations.length) throw new Error('the source database has never been migrated: nothing to copy');
  const unknown = sourceMigrations.filter((m) => !known.has(m));
  if (unknown.length)
    throw new Error(`the source database is at a newer schema (${unknown.join(', ')}): run this with that version`);
  if (deps.target) {
    const applied = await appliedMigrations(deps.target);
    if (applied.some((m) => !sourceMigrations.includes(m)))
      throw new Error(`the target database is at a newer schema (${applied.at(-1)}) than the source: use an empty one`);
  }

  if (deps.dryRun) return plan(deps);

  const readOnly = createReadOnlySwitch(source.db);
  if ((await readOnly.since()) === null) await readOnly.turnOn(deps.now?.() ?? Date.now());
  log('source: read-only mode on (every server on it refuses changes until `npm run admin -- read-only off`)');

  const files = deps.targetBlobs ? await copyFiles(deps, deps.targetBlobs) : { count: 0, bytes: 0, copied: 0 };
  const tables = deps.target ? await copyDatabase(deps, deps.target, sourceMigrations) : [];
  log(
    `done: ${tables.length} tables (${tables.filter((t) => t.copied).length} copied, the rest already equal), ${files.count} files (${files.copied} copied), all verified`,
  );
  log('the source stays read-only: point the servers at the target and start them there');
  return { tables, files };
}

async function plan(deps: MigrateDeps): Promise<MigrateReport> {
  const { log } = deps;
  log('dry run: nothing is written');
  const tables: MigrateReport['tables'] = [];
  if (deps.target) {
    const targetTables = new Set((await listTables(deps.target)).map((t) => t.name));
    await inReadSnapshot(deps.source, async (place) => {
      for (const table of await listTables(place)) {
        const rows = await countRows(place, table);
        const there = targetTables.has(table.name) ? await countRows(deps.target as DatabaseHandle, table) : 0;
        tables.push({ name: table.name, rows, checksum: '', copied: there !== rows });
        log(`table ${table.name}: ${rows} rows${there ? ` (${there} already in the target)` : ''}`);
      }
    });
  }
  const files = { count: 0, bytes: 0, copied: 0 };
  if (deps.targetBlobs) {
    for await (const object of deps.sourceBlobs.listObjects()) {
      files.count += 1;
      files.bytes += object.size;
      if ((await deps.targetBlobs.stat(object.key))?.size !== object.size) files.copied += 1;
    }
    log(`files: ${files.count} (${files.bytes} bytes), ${files.count - files.copied} of them already in the target`);
  }
  return { tables, files };
}

/** Rows of a table, counted by primary-key ranges as everything here reads (no long count(*) statement). */
async function countRows(place: Pick<DatabaseHandle, 'db' | 'dialect' | 'schema'>, table: TableInfo): Promise<number> {
  let rows = 0;
  for await (const batch of readRows(place.db, place, { ...table, columns: table.primaryKey })) rows += batch.length;
  return rows;
}

async function sha256Of(body: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function copyFiles(deps: MigrateDeps, target: BlobStore): Promise<MigrateReport['files']> {
  const files = { count: 0, bytes: 0, copied: 0 };
  for await (const object of deps.sourceBlobs.listObjects()) {
    const there = await target.stat(object.key);
    if (there?.size === object.size) {
      const expected = await sha256Of(await deps.sourceBlobs.read(object.key));
      if ((await sha256Of(await target.read(object.key))) === expected) {
        files.count += 1;
        files.bytes += object.size;
        continue;
      }
    }
    const hashing = hashingStream();
    const body = (await deps.sourceBlobs.read(object.key)).pipe(hashing.stream);
    await target.put(object.key, body, { contentType: 'application/octet-stream' });
    const sent = hashing.result();
    const stored = await target.stat(object.key);
    if (stored?.size !== sent.size || (await sha256Of(await target.read(object.key))) !== sent.sha256)
      throw new Error(`file ${object.key}: the copy in the target differs from the source (size or SHA-256)`);
    files.count += 1;
    files.bytes += sent.size;
    files.copied += 1;
    await deps.onProgress?.({ file: object.key });
  }
  deps.log(`files: ${files.count} (${files.bytes} bytes) in the target, ${files.copied} copied now, each checked`);
  return files;
}

async function copyDatabase(
  deps: MigrateDeps,
  target: DatabaseHandle,
  sourceMigrations: string[],
): Promise<MigrateReport['tables']> {
  const { log } = deps;
  await migrateUpTo(target, sourceMigrations.at(-1) as string);
  const targetTables = new Map((await listTables(target)).map((t) => [t.name, t]));
  const report: MigrateReport['tables'] = [];
  await inReadSnapshot(deps.source, async (place) => {
    for (const table of await listTables(place)) {
      const there = targetTables.get(table.name);
      if (!there || JSON.stringify(there.columns) !== JSON.stringify(table.columns))
        throw new Error(`table ${table.name}: the target's columns differ from the source's at the same schema`);
      const [sourceCount, targetCount] = [await countRows(place, table), await countRows(target, table)];
      if (sourceCount === targetCount && targetCount > 0) {
        const [a, b] = [await digestTable(place.db, place, table), await digestTable(target.db, target, table)];
        if (a.checksum === b.checksum) {
          report.push({ name: table.name, rows: a.rows, checksum: a.checksum, copied: false });
          log(`table ${table.name}: ${a.rows} rows already there and equal`);
          continue;
        }
      }
      const digest = new TableDigest();
      const batchRows = Math.min(deps.batchRows ?? READ_BATCH, insertBatchSize(table));
      for await (const batch of readRows(place.db, place, table, batchRows)) {
        for (const row of batch) digest.add(row);
        await insertRows(target.db, target, table, batch, 'replace');
        await deps.onProgress?.({ table: table.name, rows: digest.rows });
      }
      const copied = await digestTable(target.db, target, table);
      if (copied.rows !== digest.rows || copied.checksum !== digest.checksum)
        throw new Error(
          `table ${table.name}: the target holds ${copied.rows} rows for the source's ${digest.rows}, or their checksum differs${copied.rows > digest.rows ? ' (rows the source no longer has: copy into an empty database)' : ''}`,
        );
      report.push({ name: table.name, rows: digest.rows, checksum: digest.checksum, copied: true });
      log(`table ${table.name}: ${digest.rows} rows copied and checked`);
    }
  });
  await resetSequences(target.db, target);
  // The copy took the source's read-only mode with its settings: the target is where the servers go on writing.
  await createReadOnlySwitch(target.db).turnOff();
  return report;
}
