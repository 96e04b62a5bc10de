import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { z } from 'zod';
import { decodeJson } from '../lib/decode-json.ts';
import type { RowValues } from './table-rows.ts';

/**
 * The backup directory: `manifest.json` (written last: a directory without it is an unfinished backup),
 * `tables/<table>.ndjson.gz` (a line naming the columns, then one JSON array per row) and `blobs/<key>`.
 */
export const MANIFEST_FILE = 'manifest.json';
export const BACKUP_FORMAT = 1;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.string(),
  /** The database it was taken from: sqlite or postgres (a backup restores into either). */
  dialect: z.enum(['sqlite', 'postgres']),
  /** Every migration the database had run, in order; the last is the schema version. */
  migrations: z.array(z.string()).min(1),
  schemaVersion: z.string(),
  tables: z.array(
    z.object({
      name: z.string(),
      columns: z.array(z.string()),
      rows: z.number().int().nonnegative(),
      /** TableDigest of the rows. */
      checksum: sha256,
      file: z.string(),
      /** SHA-256 of the file's bytes. */
      sha256,
    }),
  ),
  blobs: z.array(z.object({ key: z.string(), size: z.number().int().nonnegative(), sha256 })),
});
export type BackupManifest = z.infer<typeof manifestSchema>;
export type BackupTable = BackupManifest['tables'][number];
export type BackupBlob = BackupManifest['blobs'][number];

export const tableFile = (name: string) => `tables/${name}.ndjson.gz`;
export const blobFile = (key: string) => `blobs/${key}`;

/** Passes bytes through, counting them and hashing them with SHA-256. */
export function hashingStream() {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest('hex') }) };
}

/** Writes a table's rows (from `batches`) to its file; answers the file's SHA-256. */
export async function writeTableFile(
  file: string,
  columns: string[],
  batches: AsyncIterable<RowValues[]>,
): Promise<string> {
  async function* lines() {
    yield `${JSON.stringify({ columns })}\n`;
    for await (const batch of batches) yield batch.map((row) => `${JSON.stringify(row)}\n`).join('');
  }
  const hashing = hashingStream();
  await pipeline(lines(), createGzip(), hashing.stream, fs.createWriteStream(file, { flags: 'wx' }));
  return hashing.result().sha256;
}

/** A table file's first line: the columns its rows hold, in order. */
const tableHeader = z.object({ columns: z.array(z.string()) });

/** A table file's rows in batches, checked against the columns the manifest names. */
export async function* readTableFile(file: string, columns: string[], batchSize: number): AsyncGenerator<RowValues[]> {
  const lines = readline.createInterface({
    input: fs.createReadStream(file).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  const name = path.basename(file);
  const rowShape = z.array(z.union([z.number(), z.string(), z.null()])).length(columns.length);
  let lineNo = 0;
  let batch: RowValues[] = [];
  for await (const line of lines) {
    lineNo += 1;
    if (lineNo === 1) {
      const header = decodeJson(line, tableHeader);
      if (!header.ok || JSON.stringify(header.value.columns) !== JSON.stringify(columns))
        throw new Error(`${name} names other columns than manifest.json`);
      continue;
    }
    const row = decodeJson(line, rowShape);
    if (!row.ok) throw new Error(`${name} holds a row of the wrong shape (line ${lineNo}: ${row.problem})`);
    batch.push(row.value);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** Copies a stream to a new file; answers its size and SHA-256. */
export async function writeHashedFile(file: string, body: Readable): Promise<{ size: number; sha256: string }> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const hashing = hashingStream();
  await pipeline(body, hashing.stream, fs.createWriteStream(file));
  return hashing.result();
}

/** Size and SHA-256 of a file as it is now. */
export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  const temp = path.join(dir, `${MANIFEST_FILE}.tmp`);
  await fsp.writeFile(temp, `${JSON.stringify(manifest, null, 1)}\n`);
  await fsp.rename(temp, path.join(dir, MANIFEST_FILE));
}

/** The manifest of a finished backup, or an error that says what is wrong with the directory. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  const file = path.join(dir, MANIFEST_FILE);
  const text = await fsp.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT')
      throw new Error(`${dir} holds no ${MANIFEST_FILE}: it is not a backup, or the backup did not finish`);
    throw error;
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON: the backup is damaged`);
  }
  const format = (parsed as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > BACKUP_FORMAT)
    throw new Error(`${file} is backup format ${format}; this version reads format ${BACKUP_FORMAT}: upgrade first`);
  const result = manifestSchema.safeParse(parsed);
  if (!result.success)
    throw new Error(
      `${file} is not a manifest this version understands: ${result.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}`,
    );
  return result.data;
}
