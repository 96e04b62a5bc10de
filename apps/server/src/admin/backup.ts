import fsp from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseHandle } from '../db/database.ts';
import { assertSafeKey, type BlobStore } from '../storage/blob-store.ts';
import {
  BACKUP_FORMAT,
  type BackupBlob,
  type BackupManifest,
  type BackupTable,
  blobFile,
  tableFile,
  writeHashedFile,
  writeManifest,
  writeTableFile,
} from './backup-archive.ts';
import { inReadSnapshot } from './read-snapshot.ts';
import { appliedMigrations, listTables } from './table-catalog.ts';
import { readRows, type RowValues, TableDigest } from './table-rows.ts';

/** A blob store that can say what it holds (both of ours can). */
export type ListableBlobStore = BlobStore & { listObjects(): AsyncGenerator<{ key: string; size: number }> };

export interface BackupDeps {
  /** The installation's database; the backup only reads it (its own connection: the server keeps running). */
  source: Pick<DatabaseHandle, 'db' | 'dialect' | 'schema'>;
  blobs: ListableBlobStore;
  log: (line: string) => void;
  /** Clock for the manifest's date. */
  now?: () => Date;
}

/**
 * `admin backup <dir>`, while the servers run: the database as one snapshot (a read transaction: SQLite's WAL keeps
 * it consistent without stopping writers; PostgreSQL's repeatable-read snapshot), every stored file, and a manifest
 * with each table's row count and checksum, each file's size and SHA-256, and the schema version.
 *
 * Files are copied before the snapshot and again after it (only those new since). A row is written after its file
 * (uploads) and deleted before it (removals), so every file a row of the snapshot names is in one of the two passes.
 */
export async function backup(deps: BackupDeps, dir: string): Promise<BackupManifest> {
  const { log } = deps;
  await prepareDirectory(dir);

  const blobs = new Map<string, BackupBlob>();
  await copyBlobs(deps, dir, blobs);
  log(`files: ${blobs.size} copied before the database snapshot`);

  const { migrations, tables } = await dumpDatabase(deps, dir);
  const rows = tables.reduce((sum, t) => sum + t.rows, 0);
  log(`database: ${tables.length} tables, ${rows} rows, schema ${migrations[migrations.length - 1]}`);

  const before = blobs.size;
  await copyBlobs(deps, dir, blobs);
  log(`files: ${blobs.size - before} more stored while the snapshot was taken`);

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    createdAt: (deps.now?.() ?? new Date()).toISOString(),
    dialect: deps.source.dialect,
    migrations,
    schemaVersion: migrations[migrations.length - 1] as string,
    tables,
    blobs: [...blobs.values()].sort((a, b) => a.key.localeCompare(b.key)),
  };
  await writeManifest(dir, manifest);
  const bytes = manifest.blobs.reduce((sum, b) => sum + b.size, 0);
  log(`backup written to ${dir}: ${tables.length} tables, ${manifest.blobs.length} files (${bytes} bytes)`);
  log('the server key is not in the backup: keep DATA_DIR/secret.key (or SECRET_KEY) apart, see docs/operations.md');
  return manifest;
}

async function prepareDirectory(dir: string): Promise<void> {
  const entries = await fsp.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length) throw new Error(`${dir} is not empty: back up into a new directory`);
  await fsp.mkdir(path.join(dir, 'tables'), { recursive: true });
  await fsp.mkdir(path.join(dir, 'blobs'), { recursive: true });
}

/** Copies each stored file not copied yet; a file deleted between the listing and its copy is skipped. */
async function copyBlobs(deps: BackupDeps, dir: string, copied: Map<string, BackupBlob>): Promise<void> {
  for await (const { key } of deps.blobs.listObjects()) {
    if (copied.has(key)) continue;
    try {
      assertSafeKey(key);
    } catch {
      deps.log(`skipped ${JSON.stringify(key)}: not a name this server gives its files`);
      continue;
    }
    const body = await deps.blobs.read(key).catch(() => null);
    if (!body) continue;
    const { size, sha256 } = await writeHashedFile(path.join(dir, blobFile(key)), body);
    copied.set(key, { key, size, sha256 });
  }
}

/** Every table, read inside one read-only transaction on a connection of its own. */
function dumpDatabase(deps: BackupDeps, dir: string): Promise<{ migrations: string[]; tables: BackupTable[] }> {
  return inReadSnapshot(deps.source, async (place) => {
    const migrations = await appliedMigrations(place);
    if (!migrations.length) throw new Error('the database has never been migrated: there is nothing to back up');
    const tables: BackupTable[] = [];
    for (const table of await listTables(place)) {
      const digest = new TableDigest();
      async function* counted(): AsyncGenerator<RowValues[]> {
        for await (const batch of readRows(place.db, place, table)) {
          for (const row of batch) digest.add(row);
          yield batch;
        }
      }
      const file = tableFile(table.name);
      const sha256 = await writeTableFile(path.join(dir, file), table.columns, counted());
      tables.push({
        name: table.name,
        columns: table.columns,
        rows: digest.rows,
        checksum: digest.checksum,
        file,
        sha256,
      });
    }
    return { migrations, tables };
  });
}
