import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { type DatabaseHandle, migrateToLatest, migrateUpTo, migrationNames } from '../db/database.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { type BackupManifest, blobFile, hashFile, readManifest, readTableFile } from './backup-archive.ts';
import { appliedMigrations, listTables, tableRef } from './table-catalog.ts';
import { digestTable, insertBatchSize, insertRows, resetSequences } from './table-rows.ts';

export interface RestoreDeps {
  /** The installation to restore into: its database must be empty (a new DATA_DIR, or a new database or schema). */
  target: DatabaseHandle;
  blobs: BlobStore;
  log: (line: string) => void;
}

/**
 * `admin restore <dir>`: checks the whole backup first (a schema this build knows, every file's checksum), then puts
 * the files into the store, runs the migrations up to the backup's schema, inserts every row in one transaction
 * (an interrupted restore leaves the database empty again), compares each table's count and checksum with the
 * manifest before committing, and finally runs the newer migrations of this build.
 */
export async function restore(deps: RestoreDeps, dir: string): Promise<BackupManifest> {
  const { target, log } = deps;
  const manifest = await readManifest(dir);
  refuseUnknownSchema(manifest);
  await verifyFiles(dir, manifest, log);
  await refuseNonEmptyTarget(target, manifest);

  let stored = 0;
  for (const blob of manifest.blobs) {
    await deps.blobs.put(blob.key, fs.createReadStream(path.join(dir, blobFile(blob.key))), {
      contentType: 'application/octet-stream',
    });
    stored += 1;
    if (stored % 500 === 0) log(`files: ${stored} of ${manifest.blobs.length} stored`);
  }
  log(`files: ${manifest.blobs.length} stored`);

  await migrateUpTo(target, manifest.schemaVersion);
  const tables = await listTables(target);
  const inBackup = new Map(manifest.tables.map((t) => [t.name, t]));
  const missing = tables.filter((t) => !inBackup.has(t.name)).map((t) => t.name);
  const extra = manifest.tables.filter((t) => !tables.some((x) => x.name === t.name)).map((t) => t.name);
  if (missing.length || extra.length)
    throw new Error(
      `the backup's tables do not match its schema version (missing: ${missing.join(', ') || 'none'}; unknown: ${extra.join(', ') || 'none'})`,
    );

  await target.db.transaction().execute(async (trx) => {
    const place = { db: trx, dialect: target.dialect, schema: target.schema };
    for (const table of tables) {
      const saved = inBackup.get(table.name) as BackupManifest['tables'][number];
      if (JSON.stringify(saved.columns) !== JSON.stringify(table.columns))
        throw new Error(
          `table ${table.name}: the backup's columns differ from those of schema ${manifest.schemaVersion}`,
        );
      for await (const batch of readTableFile(path.join(dir, saved.file), saved.columns, insertBatchSize(table)))
        await insertRows(place.db, place, table, batch);
      const digest = await digestTable(place.db, place, table);
      if (digest.rows !== saved.rows || digest.checksum !== saved.checksum)
        throw new Error(
          `table ${table.name}: ${digest.rows} rows restored of ${saved.rows}, or their checksum differs: nothing was restored`,
        );
    }
    await resetSequences(place.db, place);
  });
  const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
  log(`database: ${tables.length} tables, ${rows} rows restored and checked (schema ${manifest.schemaVersion})`);

  await migrateToLatest(target);
  const latest = migrationNames().at(-1);
  if (latest !== manifest.schemaVersion) log(`database: migrated from ${manifest.schemaVersion} to ${latest}`);
  log(
    'done. Put the server key back before starting: DATA_DIR/secret.key, or SECRET_KEY, as it was when the backup was made (docs/operations.md)',
  );
  return manifest;
}

function refuseUnknownSchema(manifest: BackupManifest): void {
  const known = new Set(migrationNames());
  const unknown = manifest.migrations.filter((m) => !known.has(m));
  if (unknown.length)
    throw new Error(
      `the backup comes from a newer version (schema ${manifest.schemaVersion}; unknown migrations: ${unknown.join(', ')}); this version knows up to ${migrationNames().at(-1)}: restore it with that version or a later one`,
    );
  if (manifest.migrations.at(-1) !== manifest.schemaVersion)
    throw new Error('manifest.json: schemaVersion is not the last migration listed: the backup is damaged');
}

async function verifyFiles(dir: string, manifest: BackupManifest, log: (line: string) => void): Promise<void> {
  const checks = [
    ...manifest.tables.map((t) => ({ file: t.file, sha256: t.sha256, size: undefined as number | undefined })),
    ...manifest.blobs.map((b) => ({ file: blobFile(b.key), sha256: b.sha256, size: b.size as number | undefined })),
  ];
  for (const check of checks) {
    const file = path.resolve(dir, check.file);
    if (!file.startsWith(path.resolve(dir) + path.sep)) throw new Error(`manifest.json names a file outside ${dir}`);
    const actual = await hashFile(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new Error(`${check.file} is missing from the backup: nothing was restored`);
      throw error;
    });
    if (actual.sha256 !== check.sha256 || (check.size !== undefined && actual.size !== check.size))
      throw new Error(
        `${check.file} does not match its checksum in manifest.json (the backup is damaged or was changed): nothing was restored`,
      );
  }
  log(`backup checked: ${manifest.tables.length} tables and ${manifest.blobs.length} files match manifest.json`);
}

async function refuseNonEmptyTarget(target: DatabaseHandle, manifest: BackupManifest): Promise<void> {
  const applied = await appliedMigrations(target);
  const inBackup = new Set(manifest.migrations);
  if (applied.some((m) => !inBackup.has(m)))
    throw new Error(
      `the target database is at a newer schema (${applied.at(-1)}) than the backup (${manifest.schemaVersion}): restore into a new DATA_DIR, or an empty database or schema`,
    );
  if (!applied.length) return;
  for (const table of await listTables(target)) {
    const counted = await sql<{
      n: number | string;
    }>`select count(*) as n from ${tableRef(target, table.name)}`.execute(target.db);
    const rows = Number(counted.rows[0]?.n ?? 0);
    if (rows > 0)
      throw new Error(
        `the target installation is not empty (${table.name} has ${rows} rows): restore into a new DATA_DIR, or an empty database or schema`,
      );
  }
}
